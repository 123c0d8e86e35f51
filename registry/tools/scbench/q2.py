"""SCBench Q2 "Build a Lego(tm) hemispherical shell": `2.py` (index id 53319552581; testParams,
prompt, referenceScad, earlyFailTest, lateFailTest, postProcessScore) scored as
`VolumeComparison.py` @ 78b8743 scores it. Eight subpasses, (inner, outer) radius in cm.

The reference witness of each subpass comes from a deterministic greedy layout built here: layers
of bricks on the 8 mm stud grid (rotation 0 on even layers, 90 on odd ones, so every stud key is
(4.0, 4.0)), each candidate scored by its exact volume inside the shell; a brick is kept when more
than a quarter of it is inside (adding it then raises the score), it overlaps no kept brick of its
layer, it rests on a kept brick of the layer below and passes the original's early checks. The
layout is then checked with a Python port of the original's checks and the exact volumes (the same
convex clipping the verifier does) and must score 1 after the ÷0.65 renormalisation.
"""

import json
import math

from common import ITEMS, SOURCE_REPO, write_item
from openscad import cos_deg, sin_deg, sphere_rings

TEST_PARAMS = [(4, 7), (5, 8), (6, 9), (7, 10), (9, 13), (11, 15), (13, 16), (15, 18)]

PROMPT = """
You have an unlimited number of Lego(tm) bricks, each of individual size 31.8mm * 15.8mm * 11.4mm but when assembled they are 
32mm * 16mm * 9.6mm due to interlocking studs and voids. Each brick has 8 studs, in a 2x4 layout. 

These bricks snap together. For example: A brick at (centroid=[0, 0, 4.8],r=90) is resting on the ground centred over the origin, 
and a second brick at (centroid=[0, 0, 14.4],r=180) is clicked into the first brick with 4 interlocked studs (out of 8). A third brick at 
(centroid=[24, 0, 24],r=0) is snapped into 2 studs of the second brick, forming a 75% overhang. Were that third brick at 
[22,0,24] instead, its shell would intersect 2 studs of the Lego brick below it, and thus not be buildable.

Assemble the bricks such that they resemble a 3D hemispherical shell, with inner radius PARAM_A cm and outer radius PARAM_B cm, 
the centre of the hemisphere is at the origin (0,0,0).

Since it's impossible to create a perfect curve, the best score is one which is closer to the ideal curve, with
scoring being calculated based on the volume difference between the ideal curve and the actual brick structure. 
The structure needs to be buildable in 3D, so bricks can not overlap or be floating in mid air. A great answer does not 
contain any holes or missing bricks.

Blocks are being placed directly on a flat surface, i.e. without a base plate, so those resting on the ground can have
any orientation and are not confined to a specific grid structure. Connected blocks must follow legal Lego(tm) connection
rules and must not fall over when built. (Two unstable structures leaning on each other will push each other apart and fall over)

Return a list of the bricks. (location in xyz mm relative to the origin and rotation in degrees). 
"""

SCHEMA = ('Answer with JSON {"reasoning": "...", "bricks": [{"Centroid": [x, y, z], '
          '"RotationDegrees": r}, ...]}.')

BRICK = 32 * 16 * 9.6


# --- exact volumes (the verifier's volume.rs, in Python) ---


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def sphere_faces(r, fn=16):
    """OpenSCAD's sphere(r, $fn=fn): (fn+1)//2 rings at polar angles 180(i+0.5)/rings."""
    pts = sphere_rings(r, fn)
    faces = [pts[0][:]]
    for a, b in zip(pts, pts[1:]):
        for j in range(fn):
            k = (j + 1) % fn
            faces.append([a[j], b[j], b[k], a[k]])
    faces.append(list(reversed(pts[-1])))
    return faces


def planes(faces):
    out = []
    for f in faces:
        n = [0.0, 0.0, 0.0]
        for i, p in enumerate(f):
            q = f[(i + 1) % len(f)]
            n[0] += (p[1] - q[1]) * (p[2] + q[2])
            n[1] += (p[2] - q[2]) * (p[0] + q[0])
            n[2] += (p[0] - q[0]) * (p[1] + q[1])
        ln = math.sqrt(_dot(n, n))
        n = (n[0] / ln, n[1] / ln, n[2] / ln)
        out.append((n, sum(_dot(n, p) for p in f) / len(f)))
    return out


def volume(faces):
    v = 0.0
    for f in faces:
        for i in range(1, len(f) - 1):
            v += _dot(f[0], _cross(f[i], f[i + 1]))
    return v / 6.0


EPS = 1e-9


def clip(faces, n, d):
    """The part n.x <= d of a convex polytope (faces counter-clockwise seen from outside)."""
    dist = [[_dot(n, p) - d for p in f] for f in faces]
    if all(s <= EPS for ds in dist for s in ds):
        return faces
    if all(s >= -EPS for ds in dist for s in ds):
        return []
    out, cut = [], []
    for f, ds in zip(faces, dist):
        poly, m = [], len(f)
        for i in range(m):
            p, q, dp, dq = f[i], f[(i + 1) % m], ds[i], ds[(i + 1) % m]
            if dp <= EPS:
                poly.append(p)
                if dp >= -EPS:
                    cut.append(p)
            if (dp < -EPS and dq > EPS) or (dp > EPS and dq < -EPS):
                t = dp / (dp - dq)
                x = tuple(p[k] + t * (q[k] - p[k]) for k in range(3))
                poly.append(x)
                cut.append(x)
        if len(poly) >= 3:
            out.append(poly)
    if len(cut) >= 3:
        c = tuple(sum(p[k] for p in cut) / len(cut) for k in range(3))
        u = None
        for p in cut:
            w = _sub(p, c)
            a = _dot(w, n)
            w = (w[0] - a * n[0], w[1] - a * n[1], w[2] - a * n[2])
            if _dot(w, w) > 1e-18:
                ln = math.sqrt(_dot(w, w))
                u = (w[0] / ln, w[1] / ln, w[2] / ln)
                break
        if u is not None:
            v = _cross(n, u)
            pts = sorted(cut, key=lambda p: math.atan2(_dot(_sub(p, c), v), _dot(_sub(p, c), u)))
            ring = []
            for p in pts:
                if not ring or _dot(_sub(p, ring[-1]), _sub(p, ring[-1])) > 1e-18:
                    ring.append(p)
            while len(ring) > 1 and _dot(_sub(ring[0], ring[-1]), _sub(ring[0], ring[-1])) <= 1e-18:
                ring.pop()
            if len(ring) >= 3:
                out.append(ring)
    return out


def prism_faces(poly, z0, z1):
    faces = [[(x, y, z0) for x, y in reversed(poly)], [(x, y, z1) for x, y in poly]]
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
        faces.append([(x0, y0, z0), (x1, y1, z0), (x1, y1, z1), (x0, y0, z1)])
    return faces


def brick_poly(cx, cy, rot):
    c, s = cos_deg(rot), sin_deg(rot)
    return [(cx + (dx * c - dy * s), cy + (dx * s + dy * c)) for dx, dy in
            [(-16, -8), (16, -8), (16, 8), (-16, 8)]]


class Shell:
    def __init__(self, inner, outer, fn=16):
        self.po = planes(sphere_faces(outer, fn))
        self.pi = planes(sphere_faces(inner, fn))
        ground = ((0.0, 0.0, -1.0), 0.0)
        self.volume = (volume(clip(sphere_faces(outer, fn), *ground))
                       - volume(clip(sphere_faces(inner, fn), *ground)))

    def _within(self, faces, pls):
        verts = {p for f in faces for p in f}
        for n, d in pls:
            if all(n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - d <= EPS for p in verts):
                continue
            faces = clip(faces, n, d)
            if not faces:
                return 0.0
            verts = {p for f in faces for p in f}
        return volume(faces)

    def brick(self, cx, cy, cz, rot):
        """vol(brick ∩ shell) of one brick."""
        z0, z1 = max(cz - 4.8, 0.0), cz + 4.8
        if z1 <= z0:
            return 0.0
        f = prism_faces(brick_poly(cx, cy, rot), z0, z1)
        return self._within(f, self.po) - self._within(f, self.pi)


def layout_volumes(bricks, shell):
    """(R, I) for bricks that do not overlap (the generator's layouts never do)."""
    r = BRICK * len(bricks)
    i = sum(shell.brick(b["Centroid"][0], b["Centroid"][1], b["Centroid"][2], b["RotationDegrees"])
            for b in bricks)
    return r, i


def vc_score(r, ref, i):
    """compareVolumeAgainstOpenScad's arithmetic with postProcessScore (÷0.65, capped)."""
    d = r + ref - 2 * i
    s = min(i / ref, r / ref) - (d / ref) * 0.5
    return max(0, min(1, s / 0.65)), s


# --- the original's structural checks, re-implemented (messages as the original's) ---

def early_fail(bricks, sp):
    inner, outer = (v * 10 for v in TEST_PARAMS[sp])
    if len(bricks) == 0:
        return "No bricks provided"
    for b in bricks:
        cx, cy, cz = b["Centroid"]
        layer = (cz - 4.8) / 9.6
        if abs(layer - round(layer)) > 0.1:
            return f"Brick {b} Z={cz} not at valid layer height (should be 4.8 + n*9.6)"
        if cz < 4.8 - 0.1:
            return "A brick " + str(b) + " below ground is invalid"
        corners = [(cx + dx, cy + dy, cz + dz) for dz in (-4.8, 4.8) for dx, dy in
                   [(-16, -8), (16, -8), (16, 8), (-16, 8)]]
        if all(x * x + y * y + z * z < inner * inner for x, y, z in corners):
            return "A brick " + str(b) + " wholly inside the inner sphere is redundant"
        if all(x * x + y * y + z * z > outer * outer for x, y, z in corners):
            return "A brick " + str(b) + " wholly outside the outer sphere is a waste"
    seen = set()
    for b in bricks:
        c = b["Centroid"]
        key = (round(c[0], 1), round(c[1], 1), round(c[2], 1), round(b["RotationDegrees"] % 180, 0))
        if key in seen:
            return f"Duplicate brick at {b}"
        seen.add(key)
    return None


def _corners_xy(b):
    cx, cy, _ = b["Centroid"]
    r = math.radians(b["RotationDegrees"])
    c, s = math.cos(r), math.sin(r)
    return [(cx + (dx * c - dy * s), cy + (dx * s + dy * c)) for dx, dy in
            [(-16, -8), (16, -8), (16, 8), (-16, 8)]]


def _aabb(b):
    pts = _corners_xy(b)
    cz = b["Centroid"][2]
    return (min(p[0] for p in pts), max(p[0] for p in pts), min(p[1] for p in pts),
            max(p[1] for p in pts), cz - 4.8, cz + 4.8)


def _xy_overlap(a, b):
    return a[0] < b[1] and a[1] > b[0] and a[2] < b[3] and a[3] > b[2]


def _stud_key(b):
    cx, cy, _ = b["Centroid"]
    r = math.radians(b["RotationDegrees"])
    c, s = math.cos(r), math.sin(r)
    return (round((cx + -12 * c - -4 * s) % 8, 2), round((cy + -12 * s + -4 * c) % 8, 2))


def _keys_match(k1, k2):
    def close(a, b):
        d = abs(a - b)
        return min(d, 8 - d) < 0.5
    return (close(k1[0], k2[0]) and close(k1[1], k2[1])) or (close(k1[0], k2[1]) and close(k1[1], k2[0]))


def _hull(points):
    pts = sorted(set(points))
    if len(pts) <= 1:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def late_fail(bricks, sp):
    bounds = [_aabb(b) for b in bricks]
    n = len(bricks)
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for i in range(n):
        for j in range(i + 1, n):
            a, b = bounds[i], bounds[j]
            if (abs(a[4] - b[5]) < 0.5 or abs(b[4] - a[5]) < 0.5) and _xy_overlap(a, b):
                parent[find(i)] = find(j)
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    components = list(groups.values())
    keys = [_stud_key(b) for b in bricks]
    for comp in components:
        for a, i in enumerate(comp):
            for j in comp[a + 1:]:
                b1, b2 = bricks[i], bricks[j]
                if (abs(b1["Centroid"][0] - b2["Centroid"][0]) < 0.5
                        and abs(b1["Centroid"][1] - b2["Centroid"][1]) < 0.5):
                    rel = abs(b1["RotationDegrees"] - b2["RotationDegrees"]) % 90
                    if rel < 1 or rel > 89:
                        continue
                    return ("Stud grid misalignment: bricks at same center but "
                            f"{abs(b1['RotationDegrees'] - b2['RotationDegrees']):.1f}° relative rotation")
                if not _keys_match(keys[i], keys[j]):
                    return ("Stud grid misalignment in connected component: "
                            f"brick {b1} grid {keys[i]} vs brick {b2} grid {keys[j]}")
    for comp in components:
        if len(comp) == 1:
            continue
        ground = [i for i in comp if round((bricks[i]["Centroid"][2] - 4.8) / 9.6) == 0]
        if not ground:
            continue
        hull = _hull([p for i in ground for p in _corners_xy(bricks[i])])
        if len(hull) < 3:
            continue
        cx = sum(bricks[i]["Centroid"][0] for i in comp) / len(comp)
        cy = sum(bricks[i]["Centroid"][1] for i in comp) / len(comp)
        inside = all((hull[(k + 1) % len(hull)][0] - hull[k][0]) * (cy - hull[k][1])
                     - (hull[(k + 1) % len(hull)][1] - hull[k][1]) * (cx - hull[k][0]) >= -0.01
                     for k in range(len(hull)))
        if not inside:
            return (f"Structure unstable: center of mass ({cx:.1f}, {cy:.1f}) "
                    "is outside support polygon of ground bricks")
    layers = {}
    for i, b in enumerate(bricks):
        layers.setdefault(round((b["Centroid"][2] - 4.8) / 9.6), []).append(i)

    def supports(up, low):
        return abs(up[4] - low[5]) < 0.5 and _xy_overlap(up, low)
    ok = set()
    for layer in sorted(layers):
        if layer == 0:
            ok.update(layers[0])
            continue
        for i in layers[layer]:
            if any(j in ok and supports(bounds[i], bounds[j]) for j in layers.get(layer - 1, [])):
                ok.add(i)
    changed = True
    while changed:
        changed = False
        for layer in sorted(layers, reverse=True):
            for i in layers[layer]:
                if i not in ok and any(j in ok and supports(bounds[j], bounds[i])
                                       for j in layers.get(layer + 1, [])):
                    ok.add(i)
                    changed = True
    for layer in layers:
        for i in layers[layer]:
            if i not in ok:
                return f"Brick {bricks[i]} is floating (not supported from below or held from above)"
    return None


def grade(bricks, sp, shell):
    """(score, reason) for a layout whose bricks do not overlap."""
    why = early_fail(bricks, sp)
    if why:
        return 0, "Early failure: " + why
    why = late_fail(bricks, sp)
    if why:
        return 0, why
    r, i = layout_volumes(bricks, shell)
    return vc_score(r, shell.volume, i)[0], "volumes"


# --- the reference layout ---

def brick(x, y, z, r):
    return {"Centroid": [x, y, z], "RotationDegrees": r}


def build_layout(sp, shell, threshold=0.25):
    inner, outer = (v * 10 for v in TEST_PARAMS[sp])
    chosen, below = [], []
    layer = 0
    while 9.6 * layer < outer:
        z = round(4.8 + 9.6 * layer, 1)
        reach = int((outer + 24) // 8) + 1
        cands = []
        for rot in (0, 90):
            hx, hy = (16, 8) if rot == 0 else (8, 16)
            for gx in range(-reach, reach + 1):
                for gy in range(-reach, reach + 1):
                    x, y = 8 * gx, 8 * gy
                    rr = math.hypot(x, y)
                    if rr > outer + 20 or rr < max(0.0, inner - 40 - 9.6 * layer):
                        continue
                    b = brick(x, y, z, rot)
                    if early_fail([b], sp):
                        continue
                    if layer > 0 and not any(abs(x - bx) < hx + bhx and abs(y - by) < hy + bhy
                                             for bx, by, bhx, bhy in below):
                        continue
                    v = shell.brick(x, y, z, rot)
                    if v > BRICK * threshold:
                        cells = frozenset((gx + dx, gy + dy) for dx in range(-hx // 8, hx // 8)
                                          for dy in range(-hy // 8, hy // 8))
                        cands.append((-v, rot, gx, gy, b, cells, hx, hy))
        cands.sort(key=lambda c: c[:4])
        taken, here = set(), []
        for c in cands:
            if c[5] & taken:
                continue
            taken |= c[5]
            here.append(c)
        if not here:
            break
        here.sort(key=lambda c: (c[4]["Centroid"][1], c[4]["Centroid"][0], c[1]))
        chosen += [c[4] for c in here]
        below = [(c[4]["Centroid"][0], c[4]["Centroid"][1], c[6], c[7]) for c in here]
        layer += 1
    return chosen


def answer(bricks, reasoning="greedy layout on the 8 mm stud grid"):
    return json.dumps({"reasoning": reasoning, "bricks": bricks}, separators=(",", ":"))


def counterexamples(sp, bricks, shell):
    inner, outer = (v * 10 for v in TEST_PARAMS[sp])
    full = bricks
    # The structural counterexamples start from the lowest three layers (smaller items).
    bricks = [b for b in full if b["Centroid"][2] < 30]
    out = [
        ('{"reasoning": "", "bricks": []}', "no bricks: early failure"),
        ('{"reasoning": "", "bricks": [{"Centroid": [0], "RotationDegrees": 0}]}',
         "the schema-minimal always-wrong answer (a one-number Centroid: the original raises)"),
    ]
    first = bricks[0]
    lifted = [dict(b) for b in bricks]
    lifted[0] = brick(first["Centroid"][0], first["Centroid"][1], 10.0, first["RotationDegrees"])
    out.append((answer(lifted), "a ground brick lifted to z = 10, between layers (lowest three layers of the reference)"))
    out.append((answer(bricks + [brick(first["Centroid"][0], first["Centroid"][1], -4.8, 0)]),
                "a brick sunk a layer below the ground"))
    out.append((answer(bricks + [brick(0, 0, 4.8, 0)]), "a brick in the hollow, wholly inside the inner sphere"))
    out.append((answer(bricks + [brick(outer + 40, 0, 4.8, 0)]), "a brick wholly outside the outer sphere"))
    out.append((answer(bricks + [dict(bricks[len(bricks) // 2])]), "a duplicated brick"))
    # A brick of layer 1 shifted by 4 mm off the stud grid (it still rests on layer 0).
    moved = [dict(b) for b in bricks]
    k = next(i for i, b in enumerate(bricks) if b["Centroid"][2] == 14.4)
    c = bricks[k]["Centroid"]
    moved[k] = brick(c[0] + 4, c[1], c[2], bricks[k]["RotationDegrees"])
    why = late_fail(moved, sp)
    assert why and why.startswith("Stud grid misalignment"), why
    out.append((answer(moved), "a layer-1 brick shifted 4 mm off the stud grid"))
    # A brick on layer 1 over a ground brick's centre, turned 30°.
    g = bricks[0]["Centroid"]
    twisted = [brick(g[0], g[1], 14.4, 30)] + [dict(b) for b in bricks]
    why = late_fail(twisted, sp)
    assert why and "same center" in why, why
    out.append((answer(twisted), "a brick stacked on the same centre as the one below, turned 30°"))
    # Remove the layer below one upper brick: it floats.
    for i, b in enumerate(bricks):
        z = b["Centroid"][2]
        if z < 24:
            continue
        me = _aabb(b)
        rest = [o for j, o in enumerate(bricks) if not (abs(o["Centroid"][2] - (z - 9.6)) < 0.01
                                                        and _xy_overlap(me, _aabb(o)))]
        why = early_fail(rest, sp) or late_fail(rest, sp)
        if why and "floating" in why:
            out.append((answer(rest), "the bricks under an upper brick removed: it floats"))
            break
    # A cantilevered staircase: the centre of mass leaves the ground brick's footprint.
    for c0 in range(int(inner), int(outer) - 16):
        stair = [brick(c0, 0, 4.8, 0)] + [brick(c0 + 24, 0, round(4.8 + 9.6 * k, 1), 0) for k in (1, 2, 3)]
        if early_fail(stair, sp) is None:
            why = late_fail(stair, sp)
            if why and why.startswith("Structure unstable"):
                out.append((answer(stair), "a cantilevered stack whose centre of mass overhangs its ground brick"))
                break
    # The lower half of the dome only: valid, a partial score.
    top = max(b["Centroid"][2] for b in full)
    half = [b for b in full if b["Centroid"][2] <= top / 2]
    s, why = grade(half, sp, shell)
    assert 0 < s < 1, (s, why)
    out.append((answer(half), f"only the lower half of the dome: valid, partial score {s:.3f}"))
    return out


def generate():
    for sp, (a, b) in enumerate(TEST_PARAMS):
        shell = Shell(a * 10, b * 10)
        bricks = build_layout(sp, shell)
        s, why = grade(bricks, sp, shell)
        r, i = layout_volumes(bricks, shell)
        raw = vc_score(r, shell.volume, i)[1]
        assert s == 1, (sp, s, why, raw)
        prompt = PROMPT.replace("PARAM_A", str(a)).replace("PARAM_B", str(b))
        write_item(
            ITEMS, f"scbench/q2/{sp}", "scbench-q2-lego-hemisphere", answer(bricks),
            counterexamples(sp, bricks, shell),
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q2 Build a Lego(tm) hemispherical shell, subpass {sp}: {SOURCE_REPO} "
                       "2.py (index id 53319552581), VolumeComparison.py @ 78b8743",
             "problem": f"Lego bricks approximating a hemispherical shell of inner radius {a} cm and "
                        f"outer radius {b} cm (OpenSCAD sphere, $fn=16)",
             "construction_instruction": prompt.strip() + "\n\n" + SCHEMA},
            {"subpass": sp, "inner_cm": a, "outer_cm": b, "fn": 16},
            {"fuel": 5_000_000_000, "memory_bytes": 134_217_728, "timeout_ms": 30_000})
        print(f"q2/{sp}: {len(bricks)} bricks, raw score {raw:.3f} (I/Ref {i / shell.volume:.3f}, "
              f"R/Ref {r / shell.volume:.3f})")
