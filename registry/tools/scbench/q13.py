"""SCBench Q13 "Hide and seek behind a building": `13.py` @ 0ac70f2 (six subpasses: crowd size and
building width from `prepareSubpassPrompt` / `gradeAnswer`), the render settings of `OpenScad.py`
@ fe86f02 (`--autocenter --viewall --camera=100,100,20,0,0,2 --imgsize=800,600`) and OpenSCAD's
camera (`Camera::setup`/`viewAll`: distance r / sin(22.5°/2), vertical field of view 22.5°).

The reference witness of each subpass is a crowd on a 0.6 m grid in the building's shadow, chosen
here: grid points nearest the sniper's line of sight through the building first, each kept only
if every corner of the person's box is hidden from (100, 100, 20); the crowd is then rendered with
the port of the original's view below (one ray per pixel centre) and must show no red pixel.
"""

import json
import math

from common import ITEMS, SOURCE_REPO, write_item

COUNTS = [4, 20, 40, 80, 150, 200]
WIDTHS = [2, 4, 6, 8, 10, 7]
SNIPER = (100.0, 100.0, 20.0)
LOOK_AT = (0.0, 0.0, 2.0)
W, H, FOV = 800, 600, 22.5

PROMPT = """
You have a building at the origin, axis aligned, PARAM_B meters wide and deep, and 10 meters tall.

A sniper is located at (100,100,20) and is looking at the building.

Position a crowd of PARAM_A people (represented by a 0.5*0.5*2m axis aligned bounding box resting on the z=0 plane) 
in such a way that:
- the sniper can not see any of them due to the building blocking their line of sight.
- the people must be positioned entirely on the ground (z=0).
- the people must not overlap with the building or each other.
- nobody is more than 30 meters away from the building's center.
"""

SCHEMA = 'Answer with JSON {"people": [{"xy": [x, y]}, ...]}.'


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(a):
    n = math.sqrt(_dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


def person_box(x, y):
    return ((x - 0.25, y - 0.25, 0.0), (x + 0.25, y + 0.25, 2.0))


def building_box(w):
    return ((-w / 2, -w / 2, 0.0), (w / 2, w / 2, 10.0))


def ray_box(o, inv, box):
    near, far = -math.inf, math.inf
    for k in range(3):
        t1 = (box[0][k] - o[k]) * inv[k]
        t2 = (box[1][k] - o[k]) * inv[k]
        lo, hi = min(t1, t2), max(t1, t2)
        if not math.isnan(lo):
            near = max(near, lo)
        if not math.isnan(hi):
            far = min(far, hi)
    return near if near <= far and far > 0 else None


def red_pixels(w, people, only=None):
    """Pixels of the original's render whose nearest surface is a person, per person (or those
    of person `only` alone: the camera still frames the whole scene)."""
    boxes = [building_box(w)] + [person_box(x, y) for x, y in people]
    lo = [min(b[0][k] for b in boxes) for k in range(3)]
    hi = [max(b[1][k] for b in boxes) for k in range(3)]
    center = tuple((lo[k] + hi[k]) / 2 for k in range(3))
    radius = math.sqrt(sum((hi[k] - lo[k]) ** 2 for k in range(3))) / 2
    half = math.radians(FOV / 2)
    dist = radius / math.sin(half)
    f = _unit(_sub(LOOK_AT, SNIPER))
    eye = tuple(center[k] - dist * f[k] for k in range(3))
    right = _unit(_cross(f, (0.0, 0.0, 1.0)))
    up = _cross(right, f)
    t, asp = math.tan(half), W / H
    red, per = set(), []
    for p, box in enumerate(boxes[1:]):
        if only is not None and p != only:
            continue
        # The pixel rectangle of the box's projection, one pixel of margin.
        xs, ys = [], []
        for cx in (box[0][0], box[1][0]):
            for cy in (box[0][1], box[1][1]):
                for cz in (box[0][2], box[1][2]):
                    v = _sub((cx, cy, cz), eye)
                    z = _dot(v, f)
                    xs.append(((_dot(v, right) / z / (t * asp)) + 1) / 2 * W - 0.5)
                    ys.append((1 - _dot(v, up) / z / t) / 2 * H - 0.5)
        i0, i1 = max(0, math.floor(min(xs)) - 1), min(W - 1, math.ceil(max(xs)) + 1)
        j0, j1 = max(0, math.floor(min(ys)) - 1), min(H - 1, math.ceil(max(ys)) + 1)
        n = 0
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                x = ((i + 0.5) / W * 2 - 1) * t * asp
                y = (1 - (j + 0.5) / H * 2) * t
                d = tuple(f[k] + x * right[k] + y * up[k] for k in range(3))
                inv = tuple(1 / c if c != 0 else math.inf for c in d)
                tp = ray_box(eye, inv, box)
                if tp is None:
                    continue
                tb = ray_box(eye, inv, boxes[0])
                if tb is None or tb > tp:
                    n += 1
                    red.add((i, j))
        per.append(n)
    return len(red), per


def hidden_from_sniper(w, x, y):
    """Every corner of the person's box behind the building, seen from the sniper."""
    b = building_box(w)
    for cx in (x - 0.25, x + 0.25):
        for cy in (y - 0.25, y + 0.25):
            for cz in (0.0, 2.0):
                d = _sub((cx, cy, cz), SNIPER)
                near, far = 0.0, 1.0
                for k in range(3):
                    if d[k] == 0:
                        if not b[0][k] <= SNIPER[k] <= b[1][k]:
                            return False
                        continue
                    t1, t2 = (b[0][k] - SNIPER[k]) / d[k], (b[1][k] - SNIPER[k]) / d[k]
                    near, far = max(near, min(t1, t2)), min(far, max(t1, t2))
                if near > far:
                    return False
    return True


def pre_check(sp, people):
    """The original's checks before the render: None, or its message."""
    if len(people) != COUNTS[sp]:
        return f"Expected {COUNTS[sp]} people, got {len(people)}"
    for x, y in people:
        d = (x ** 2 + y ** 2) ** 0.5
        if d > 30:
            return f"Person at ({x}, {y}) is too far from center: {d}"
    for i, (x1, y1) in enumerate(people):
        for j in range(i + 1, len(people)):
            x2, y2 = people[j]
            if ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 < 0.5:
                return f"Overlap detected between person {i} and person {j}"
    for x, y in people:
        if abs(x) <= WIDTHS[sp] / 2 + 0.25 and abs(y) <= WIDTHS[sp] / 2 + 0.25:
            return f"Person at ({x}, {y}) intersects with building"
    return None


def crowd(sp):
    w, n = WIDTHS[sp], COUNTS[sp]
    # Grid points behind the building (x, y < 0), nearest the diagonal first.
    pts = []
    for gx in range(1, 60):
        for gy in range(1, 60):
            x, y = round(-w / 2 - 0.6 * gx, 1), round(-w / 2 - 0.6 * gy, 1)
            if math.hypot(x, y) <= 29 and hidden_from_sniper(w, x, y):
                pts.append((abs(x - y), math.hypot(x, y), x, y))
    pts.sort()
    people = [(x, y) for _, _, x, y in pts[:n]]
    assert len(people) == n and pre_check(sp, people) is None
    red, _ = red_pixels(w, people)
    assert red == 0, (sp, red)
    return people


def answer(people):
    return json.dumps({"people": [{"xy": [x, y]} for x, y in people]}, separators=(",", ":"))


def peeking(sp, people):
    """The crowd with its last person replaced by one at the edge of the shadow, where a few
    pixels show (a partial score)."""
    w = WIDTHS[sp]
    rest = people[:-1]
    r2 = math.sqrt(0.5)
    for s in [d / 2 for d in range(56, int(w) + 1, -1)]:
        for sign in (1, -1):
            def at(t):
                return (round(-s * r2 + sign * t * r2, 2), round(-s * r2 - sign * t * r2, 2))
            t = 0.0
            while t < 30 and hidden_from_sniper(w, *at(t)):
                t += 0.05
            for k in range(-40, 40):
                p = at(t + 0.01 * k)
                if math.hypot(*p) > 29.5 or pre_check(sp, rest + [p]):
                    continue
                red = red_pixels(w, rest + [p], only=len(rest))[0]
                if 0 < red < 100:
                    return rest + [p], red
    raise RuntimeError(f"no peeking position for subpass {sp}")


def counterexamples(sp, people):
    w, n = WIDTHS[sp], COUNTS[sp]
    out = []
    moved, red = peeking(sp, people)
    assert red_pixels(w, moved)[0] == red
    s = 1.0
    for _ in range(red):
        s -= 0.005
    out.append((answer(moved), f"one person peeks out of the shadow: {red} red pixels, score {s:.3f}"))
    # Everyone in the open, in front of the building.
    front = [(round(w / 2 + 2 + 0.6 * (i % 10), 1), round(-3 + 0.6 * (i // 10), 1)) for i in range(n)]
    assert pre_check(sp, front) is None and red_pixels(w, front, only=0)[0] >= 200
    out.append((answer(front), "everyone stands in the open, between the sniper and the building"))
    out.append((answer(people[:-1]), "one person short of the crowd"))
    far = people[:-1] + [(-22.0, -22.0)]
    out.append((answer(far), "a person 31.1 m from the building's centre"))
    close = people[:-1] + [(people[0][0] + 0.3, people[0][1])]
    out.append((answer(close), "two people 0.3 m apart"))
    inside = people[:-1] + [(0.0, -(w / 2 + 0.2))]
    out.append((answer(inside), "a person overlapping the building's wall"))
    bad = json.loads(answer(people))
    bad["people"][0]["xy"].append(0)
    out.append((json.dumps(bad, separators=(",", ":")), "a person with three coordinates"))
    out.append(('{"people": [{"xy": [0]}]}', "the schema-minimal always-wrong answer"))
    for payload, _ in out[2:6]:
        pts = [tuple(p["xy"]) for p in json.loads(payload)["people"]]
        assert pre_check(sp, pts), payload[:80]
    return out


def generate():
    for sp, (n, w) in enumerate(zip(COUNTS, WIDTHS)):
        people = crowd(sp)
        prompt = PROMPT.replace("PARAM_A", str(n)).replace("PARAM_B", str(w))
        write_item(
            ITEMS, f"scbench/q13/{sp}", "scbench-q13-hide-and-seek", answer(people),
            counterexamples(sp, people),
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q13 Hide and seek behind a building, subpass {sp}: {SOURCE_REPO} "
                       "13.py @ 0ac70f2, OpenScad.py @ fe86f02",
             "problem": f"Hide {n} people behind a {w} m wide, 10 m tall building from a sniper at "
                        "(100, 100, 20)",
             "construction_instruction": prompt.strip() + "\n\n" + SCHEMA},
            {"subpass": sp, "people": n, "building_width": w, "building_height": 10,
             "sniper": list(SNIPER), "look_at": list(LOOK_AT), "image": [W, H], "fov": FOV},
            {"fuel": 2_000_000_000, "memory_bytes": 67_108_864, "timeout_ms": 10_000})
        print(f"q13/{sp}: {n} people behind a {w} m building")
