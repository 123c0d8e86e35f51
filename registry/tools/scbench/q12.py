"""SCBench Q12 Pipe Loop Fitting: `12.py`, index id 53410859140 (40 subpasses: the (pipes, side) table and the
complication presets are restated below from that file; subpass i > 10 uses preset i - 10, so the first preset,
"no_cross_tight_angles", is never used).

Reference loops come from deterministic constructions (coordinates rounded to 12 decimals), each checked with
`q12_grade` (a Python restatement of the original grader, messages included) before it is written:
- the boundary of a "comb" polyomino (a base row of unit cells with teeth every other column) for most
  subpasses, a small depth-first search for the lattice cycles a comb cannot give (24 pipes in 4 x 4; the
  all-turn cycle of "curvy_and_short_runs");
- a "ladder" (two parallel zig-zags of unit segments, joined by two unit rungs) where the points must stay
  off the walls or cluster around the centre;
- a lattice with every other point nudged sideways (so no vertex is straight) for the angle presets, plus
  one or two "curls" (three unit segments whose first and last cross) for the forced-crossing presets.
"""

import json
import math

from common import ITEMS, SOURCE_REPO, write_item

MODULE = "scbench-q12-pipe-loop"
SOURCE = f"{SOURCE_REPO} 12.py (index id 53410859140)"

SPECS = [(3, 1), (6, 2), (8, 2), (10, 3), (12, 3), (14, 3), (16, 3), (18, 4), (20, 4), (22, 7), (24, 4), (26, 5),
         (28, 5), (30, 5), (32, 5), (36, 6), (40, 6), (44, 6), (48, 7), (52, 9), (56, 7), (60, 8), (64, 8), (72, 9),
         (80, 10), (90, 12), (100, 14), (110, 15), (120, 16), (140, 18), (160, 20), (170, 24), (180, 26),
         (200, 27), (280, 28), (320, 30), (360, 32), (390, 35), (400, 40), (420, 50)]


def _c(kind, **kw):
    return {"type": kind, **kw}


PRESETS = [
    ("no_cross_tight_angles",
     "No crossings, angles must stay between 45° and 135°, centroid stays near the middle half.",
     [_c("max_crossings", max=0), _c("angle_range", min_deg=45, max_deg=135),
      _c("centroid_box", xmin_ratio=0.25, xmax_ratio=0.75, ymin_ratio=0.25, ymax_ratio=0.75)]),
    ("edge_runner", "No crossings, touch at least three edges and keep turning regularly.",
     [_c("max_crossings", max=0), _c("must_touch_boundary", edges_needed=3), _c("min_turns", min_turns=5)]),
    ("curvy_and_short_runs", "No crossings, avoid long straight lines and keep angles gentle.",
     [_c("max_crossings", max=0), _c("max_straight_run", max_run=2), _c("angle_range", min_deg=60, max_deg=150)]),
    ("balanced_quadrants", "No crossings, visit all quadrants of the square at least once.",
     [_c("max_crossings", max=0), _c("coverage_quadrants")]),
    ("stay_off_walls", "Stay a small margin away from the walls and still keep a reasonably large hull.",
     [_c("avoid_margin", margin_ratio=0.05), _c("min_convex_hull_area", min_area_ratio=0.15),
      _c("max_crossings", max=0)]),
    ("dense_center", "Keep centroid close to the center and avoid clustering points too tightly.",
     [_c("centroid_box", xmin_ratio=0.45, xmax_ratio=0.55, ymin_ratio=0.45, ymax_ratio=0.55),
      _c("min_point_separation", min_dist=0.25), _c("max_crossings", max=0)]),
    ("one_forced_cross", "Exactly one crossing is allowed and required, with broad angle flexibility.",
     [_c("exact_crossings", count=1), _c("angle_range", min_deg=10, max_deg=170)]),
    ("two_forced_crosses", "Two crossings are allowed and required, keep angles between 15° and 165°.",
     [_c("exact_crossings", count=2), _c("angle_range", min_deg=15, max_deg=165)]),
    ("center_start", "Start near the center, avoid crossings, and keep angles moderate.",
     [_c("fixed_start", x_ratio=0.5, y_ratio=0.5, tolerance=0.25), _c("angle_range", min_deg=40, max_deg=140),
      _c("max_crossings", max=0)]),
    ("hull_spreader", "No crossings and the convex hull must occupy at least 25% of the board.",
     [_c("max_crossings", max=0), _c("min_convex_hull_area", min_area_ratio=0.25)]),
    ("wall_kisser", "Must touch all four edges while keeping crossings at zero.",
     [_c("must_touch_boundary", edges_needed=4), _c("max_crossings", max=0)]),
]


def params(sp):
    pipes, side = SPECS[sp]
    if 10 < sp < 10 + len(PRESETS):
        name, desc, comps = PRESETS[sp - 10]
        return {"pipes": pipes, "boundary": side, "tolerance": 0.05, "preset": name, "complications": comps,
                "summary": f"{pipes} pipes in {side}x{side} with {name}: {desc}"}
    return {"pipes": pipes, "boundary": side, "tolerance": 0.05, "preset": None, "complications": None,
            "summary": f"{pipes} pipes in {side}x{side}"}


BASE_PROMPT = """
You have {pipes} 1m lengths of pipe, and a square area of side length {boundary} to play with.

Lay the pipe out to form a closed loop, using all the pipe, and returning to the starting point.

You can not re-use vertices, and you can not cross the boundary of the area. You do not need to
stick to axis aligned paths.

Return the loop as a list of the pipe endpoints. Note that N pipes requires N+1 verticies to describe a path, but since the
first and last vertices are the same, you only need to return N points.
""".strip()


def describe(c):
    t = c["type"]
    if t == "max_crossings":
        return f"Crossings allowed: {c['max']}."
    if t == "exact_crossings":
        return "Exactly one crossing is required." if c["count"] == 1 else f"Exactly {c['count']} crossings are required."
    if t == "angle_range":
        return f"Angles must stay between {c['min_deg']}° and {c['max_deg']}°."
    if t == "centroid_box":
        return ("Center of gravity must stay within "
                f"{int(c['xmin_ratio'] * 100)}%-{int(c['xmax_ratio'] * 100)}% X and "
                f"{int(c['ymin_ratio'] * 100)}%-{int(c['ymax_ratio'] * 100)}% Y of the square.")
    if t == "must_touch_boundary":
        return f"Touch at least {c['edges_needed']} distinct edges of the square."
    if t == "min_turns":
        return f"Make at least {c['min_turns']} genuine turns."
    if t == "max_straight_run":
        return f"No more than {c['max_run']} straight segments in a row."
    if t == "coverage_quadrants":
        return "Visit all four quadrants divided by the square's midlines."
    if t == "avoid_margin":
        return f"Stay at least {int(c['margin_ratio'] * 100)}% inside from every wall."
    if t == "min_convex_hull_area":
        return f"Convex hull area must be at least {int(c['min_area_ratio'] * 100)}% of the board."
    if t == "fixed_start":
        return f"Start the loop near ({int(c['x_ratio'] * 100)}% * side, {int(c['y_ratio'] * 100)}% * side)."
    if t == "min_point_separation":
        return f"Non-adjacent vertices must be at least {c['min_dist']} apart."
    return t


def prompt(sp):
    """`prepareSubpassPrompt` of 12.py."""
    p = params(sp)
    text = BASE_PROMPT.format(pipes=p["pipes"], boundary=p["boundary"])
    if p["complications"]:
        lines = "\n".join(f"- {describe(c)}" for c in p["complications"])
        text += "\n\nAdditional constraints:\n" + lines
        if "crossings are required" not in lines and "crossing is required" not in lines:
            text += "\n- The loop must not cross itself or touch itself."
    else:
        text += "\n The loop must not cross itself or touch itself."
    return text


# --------------------------------------------------------------------------------------------------
# The grader, restated (same checks, order, float operations and messages as 12.py's gradeAnswer).
# --------------------------------------------------------------------------------------------------
def _dist(p, q):
    return math.sqrt((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2)


def _ccw(a, b, c):
    return (c[1] - a[1]) * (b[0] - a[0]) > (b[1] - a[1]) * (c[0] - a[0])


def _intersect(p1, p2, p3, p4):
    eps = 1e-9
    for a, b in ((p1, p3), (p1, p4), (p2, p3), (p2, p4)):
        if abs(a[0] - b[0]) < eps and abs(a[1] - b[1]) < eps:
            return False
    return _ccw(p1, p3, p4) != _ccw(p2, p3, p4) and _ccw(p1, p2, p3) != _ccw(p1, p2, p4)


def crossing_pairs(pts):
    n = len(pts)
    seg = [(pts[i], pts[(i + 1) % n]) for i in range(n)]
    return [(i, j) for i in range(n) for j in range(i + 2, n)
            if not (i == 0 and j == n - 1) and _intersect(seg[i][0], seg[i][1], seg[j][0], seg[j][1])]


def _angle(a, b, c):
    v1x, v1y, v2x, v2y = a[0] - b[0], a[1] - b[1], c[0] - b[0], c[1] - b[1]
    l1, l2 = math.sqrt(v1x ** 2 + v1y ** 2), math.sqrt(v2x ** 2 + v2y ** 2)
    if l1 == 0 or l2 == 0:
        return 0.0
    dot = (v1x * v2x + v1y * v2y) / (l1 * l2)
    return math.degrees(math.acos(max(-1.0, min(1.0, dot))))


def _hull_area(pts):
    ps = sorted(set(pts))
    if len(ps) > 1:
        def cross(o, a, b):
            return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
        lower, upper = [], []
        for p in ps:
            while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
                lower.pop()
            lower.append(p)
        for p in reversed(ps):
            while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
                upper.pop()
            upper.append(p)
        ps = lower[:-1] + upper[:-1]
    if len(ps) < 3:
        return 0.0
    area = 0.0
    for i in range(len(ps)):
        (x1, y1), (x2, y2) = ps[i], ps[(i + 1) % len(ps)]
        area += x1 * y2 - x2 * y1
    return abs(area) / 2.0


def fsum312(values):
    """`sum(values)` of floats as CPython 3.12+ computes it (Neumaier compensation), starting from int 0."""
    values = list(values)
    if not values:
        return 0
    total, c = 0 + values[0], 0.0
    for x in values[1:]:
        t = total + x
        c += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    if c and math.isfinite(c):
        total += c
    return total


def q12_grade(answer, sp):
    """(score, explanation, error kinds) as 12.py's gradeAnswer gives them (exceptions propagate)."""
    return q12_grade_params(answer, params(sp))


def q12_grade_params(answer, p):
    pipes, side, tol, comps = p["pipes"], p["boundary"], p["tolerance"], p["complications"]
    pts_in = answer.get("points") if isinstance(answer, dict) else None
    if not isinstance(pts_in, list):
        return 0, "Answer must contain a 'points' array", ["fundamental"]
    pts = []
    for idx, pt in enumerate(pts_in):
        if not isinstance(pt, dict):
            return 0, f"Point {idx} is not an object", ["fundamental"]
        try:
            pts.append((float(pt["x"]), float(pt["y"])))
        except (TypeError, ValueError, KeyError):
            return 0, f"Point {idx} is missing numeric x/y", ["fundamental"]
    if len(pts) < 3:
        return 0, "Answer must contain at least 3 points", ["count_mismatch"]
    n = len(pts)
    errors = []

    def err(kind, msg, where=None):
        errors.append((kind, msg, where))

    if n != pipes:
        err("count_mismatch", f"Expected {pipes} points (for {pipes} pipe segments), got {n}",
            {"expected": pipes, "actual": n})
    for i, (x, y) in enumerate(pts):
        if x < 0 or x > side or y < 0 or y > side:
            err("boundary", f"Point {i} ({x:.3f}, {y:.3f}) is outside [0, {side}]", {"point_index": i})
    for i in range(n - 1):
        d = _dist(pts[i], pts[i + 1])
        if abs(d - 1.0) > tol:
            err("segment_length", f"Segment {i} length {d:.4f}, expected 1.0 ± {tol}",
                {"segment_index": i, "start": pts[i], "end": pts[i + 1]})
    d = _dist(pts[-1], pts[0])
    if abs(d - 1.0) > tol:
        err("closure", f"Closing segment length {d:.4f}, expected 1.0 ± {tol}", {"segment_index": n - 1})
    seen = {}
    for idx, q in enumerate(pts):
        key = (round(q[0], 6), round(q[1], 6))
        if key in seen:
            err("duplicate_vertex", f"Vertex {idx} reuses point {key}", {"point_index": idx, "duplicate_of": seen[key]})
        else:
            seen[key] = idx
    cross = crossing_pairs(pts)
    max_lim = exact = None
    for c in comps or []:
        if c["type"] == "max_crossings":
            max_lim = c["max"]
        elif c["type"] == "exact_crossings":
            exact = c["count"]
    if exact is None:
        lim = max_lim if max_lim is not None else 0
        if len(cross) > lim:
            err("crossings", f"Found {len(cross)} crossings, allowed {lim}", {"pairs": cross})
    for i in range(n):
        p0, p1, p2 = pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        l1, l2 = _dist(p0, p1), _dist(p1, p2)
        if l1 > 0 and l2 > 0:
            if ((p1[0] - p0[0]) / l1) * ((p2[0] - p1[0]) / l2) + ((p1[1] - p0[1]) / l1) * ((p2[1] - p1[1]) / l2) < -0.99:
                err("backtrack", f"Segment {i} backtracks on segment {(i + 1) % n}", {"segment_index": i})
    angles = [_angle(pts[i - 1], pts[i], pts[(i + 1) % n]) for i in range(n)]
    centroid = (fsum312(q[0] for q in pts) / n, fsum312(q[1] for q in pts) / n)
    hull = _hull_area(pts)

    def complications():
        for c in comps:
            t = c["type"]
            if t == "exact_crossings":
                if len(cross) != c["count"]:
                    err("exact_crossings", f"Crossings found {len(cross)}; expected exactly {c['count']}", {"pairs": cross})
            elif t == "angle_range":
                for i, a in enumerate(angles):
                    if a < c["min_deg"] or a > c["max_deg"]:
                        err("angle_range", f"Angle at vertex {i} is {a:.1f}° (expected {c['min_deg']}°-{c['max_deg']}°)",
                            {"vertex_index": i})
            elif t == "centroid_box":
                x0, x1, y0, y1 = (side * c["xmin_ratio"], side * c["xmax_ratio"], side * c["ymin_ratio"],
                                  side * c["ymax_ratio"])
                if not (x0 <= centroid[0] <= x1 and y0 <= centroid[1] <= y1):
                    err("centroid", f"Centroid at ({centroid[0]:.2f}, {centroid[1]:.2f}) is outside required box "
                        f"[{x0:.2f}, {x1:.2f}] x [{y0:.2f}, {y1:.2f}]")
            elif t == "must_touch_boundary":
                te = max(1e-3, side * 0.001)
                hit = set()
                for x, y in pts:
                    if abs(x) <= te:
                        hit.add("left")
                    if abs(x - side) <= te:
                        hit.add("right")
                    if abs(y) <= te:
                        hit.add("bottom")
                    if abs(y - side) <= te:
                        hit.add("top")
                if len(hit) < c["edges_needed"]:
                    err("boundary_touch", f"Touched {len(hit)} edges {sorted(hit)}, need {c['edges_needed']} edges")
            elif t == "min_turns":
                turns = sum(1 for a in angles if a < 175)
                if turns < c["min_turns"]:
                    err("min_turns", f"Only {turns} turns detected; need at least {c['min_turns']}")
            elif t == "max_straight_run":
                run = best = 0
                for a in angles:
                    if a > 175:
                        run += 1
                    else:
                        best, run = max(best, run), 0
                best = max(best, run)
                if best > c["max_run"]:
                    err("max_straight_run", f"Detected straight run of {best} segments, limit is {c['max_run']}")
            elif t == "coverage_quadrants":
                mid, quads = side / 2, set()
                for x, y in pts:
                    if x <= mid and y <= mid:
                        quads.add("bottom_left")
                    if x <= mid and y >= mid:
                        quads.add("top_left")
                    if x >= mid and y <= mid:
                        quads.add("bottom_right")
                    if x >= mid and y >= mid:
                        quads.add("top_right")
                if len(quads) < 4:
                    err("coverage_quadrants",
                        f"Missing quadrants: {sorted({'bottom_left', 'top_left', 'bottom_right', 'top_right'} - quads)}")
            elif t == "avoid_margin":
                m = side * c["margin_ratio"]
                for i, (x, y) in enumerate(pts):
                    if x < m or x > side - m or y < m or y > side - m:
                        err("avoid_margin", f"Point {i} ({x:.2f},{y:.2f}) violates margin {m:.2f} away from walls",
                            {"point_index": i})
                        break
            elif t == "min_convex_hull_area":
                req = (side * side) * c["min_area_ratio"]
                if hull < req:
                    err("min_convex_hull_area",
                        f"Hull area {hull:.2f} < required {req:.2f} ({c['min_area_ratio'] * 100:.0f}% of board)")
            elif t == "fixed_start":
                e = (side * c["x_ratio"], side * c["y_ratio"])
                if _dist(pts[0], e) > c.get("tolerance", 0.25):
                    err("fixed_start", f"First point {pts[0]} should start near {e} within {c.get('tolerance', 0.25)}")
            elif t == "min_point_separation":
                for i in range(n):
                    for j in range(i + 2, n):
                        if _dist(pts[i], pts[j]) < c["min_dist"]:
                            err("min_point_separation", f"Points {i} and {j} are closer than {c['min_dist']}",
                                {"point_indices": (i, j)})
                            return

    if comps:
        complications()
    elif cross:
        return 0, "Crossing detected", ["crossings"]
    if errors:
        lines = [f"{k + 1}. {kind}: {msg}" + (f" @ {where}" if where else "")
                 for k, (kind, msg, where) in enumerate(errors)]
        if len(lines) > 5:
            lines = lines[:5] + [f"... (truncated, {len(lines)} errors in total)"]
        return 0, "Validation failed:\n" + "\n".join(lines), [e[0] for e in errors]
    return 1, f"Valid loop for preset '{p['preset']}' with {n} points and {len(cross)} crossings", []


# --------------------------------------------------------------------------------------------------
# Constructions
# --------------------------------------------------------------------------------------------------
def boundary_cycle(cells):
    """The boundary of a polyomino (set of unit cells (x, y)) as lattice points in counter-clockwise
    order, or None unless it is one simple cycle (no hole, no pinch point)."""
    nxt = {}
    for x, y in cells:
        for a, b, across in (((x, y), (x + 1, y), (x, y - 1)), ((x + 1, y), (x + 1, y + 1), (x + 1, y)),
                             ((x + 1, y + 1), (x, y + 1), (x, y + 1)), ((x, y + 1), (x, y), (x - 1, y))):
            if across not in cells:
                if a in nxt:
                    return None
                nxt[a] = b
    start = min(nxt)
    cyc, cur = [start], nxt[start]
    while cur != start:
        cyc.append(cur)
        cur = nxt[cur]
        if len(cyc) > len(nxt):
            return None
    return cyc if len(cyc) == len(nxt) else None


def comb_cells(width, height, cells_needed, teeth_first=True):
    """A comb of `cells_needed` unit cells inside width x height cells: a base row along y = 0 and
    teeth going up every other column, the first ones filled first. None if it does not fit."""
    base = min(width, cells_needed)
    rest = cells_needed - base
    cells = {(x, 0) for x in range(base)}
    cols = list(range(0, base, 2))
    if not teeth_first:
        cols.reverse()
    for x in cols:
        t = min(rest, height - 1)
        cells |= {(x, y) for y in range(1, t + 1)}
        rest -= t
    return cells if rest == 0 else None


def lattice_cycle(m, length, start=None, all_turn=False, budget=200000):
    """A cycle of `length` points on the m x m lattice by depth-first search (moves tried in a fixed
    order, fewest onward moves first), optionally through `start` and turning at every vertex."""
    pts = [(i, j) for j in range(m) for i in range(m)]
    nb = {p: [(p[0] + dx, p[1] + dy) for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))
              if 0 <= p[0] + dx < m and 0 <= p[1] + dy < m] for p in pts}
    starts = [start] if start else sorted(pts, key=lambda p: (len(nb[p]), p))
    for s in starts:
        path, used, nodes = [s], {s}, [0]

        def dfs():
            nodes[0] += 1
            if nodes[0] > budget:
                return False
            head = path[-1]
            left = length - len(path)
            if left == 0:
                if s not in nb[head]:
                    return False
                if all_turn:
                    d1 = (head[0] - path[-2][0], head[1] - path[-2][1])
                    d2 = (s[0] - head[0], s[1] - head[1])
                    d3 = (path[1][0] - s[0], path[1][1] - s[1])
                    if d1 == d2 or d2 == d3:
                        return False
                return True
            if abs(head[0] - s[0]) + abs(head[1] - s[1]) > left + 1:
                return False
            moves = [q for q in nb[head] if q not in used]
            if all_turn and len(path) >= 2:
                d = (head[0] - path[-2][0], head[1] - path[-2][1])
                moves = [q for q in moves if (q[0] - head[0], q[1] - head[1]) != d]
            moves.sort(key=lambda q: (sum(r not in used for r in nb[q]), q))
            for q in moves:
                path.append(q)
                used.add(q)
                if dfs():
                    return True
                path.pop()
                used.discard(q)
            return False

        if dfs():
            return path
    return None


def perturbed(cycle, d, t, ox, oy):
    """Lattice point (i, j) at (ox + i d + t [j odd], oy + j d + t [i odd]): every unit step becomes a
    segment of length sqrt(d^2 + t^2) tilted by atan(t / d), so no vertex stays straight."""
    return [(ox + i * d + t * (j % 2), oy + j * d + t * (i % 2)) for i, j in cycle]


def ladder(n, p, x0, y0):
    """Two zig-zags of n unit segments (horizontal step p, height h = sqrt(1 - p^2)), the second one
    unit above the first, joined at both ends: 2n + 2 points."""
    h = math.sqrt(1 - p * p)
    low = [(x0 + k * p, y0 + h * (k % 2)) for k in range(n + 1)]
    return low + [(x, y + 1) for x, y in reversed(low)]


def curl(pts, i, w, side):
    """Replaces segment i (P -> S) by P -> P + w n + e -> P + w n -> S (e = S - P, n a unit normal on
    the given side): three segments, the first and the last crossing once."""
    n_ = len(pts)
    P, S = pts[i], pts[(i + 1) % n_]
    ex, ey = S[0] - P[0], S[1] - P[1]
    le = math.hypot(ex, ey)
    nx, ny = (-ey / le, ex / le) if side > 0 else (ey / le, -ex / le)
    q = (P[0] + w * nx + ex, P[1] + w * ny + ey)
    r = (P[0] + w * nx, P[1] + w * ny)
    return pts[:i + 1] + [q, r] + pts[i + 1:]


def points_answer(pts):
    return json.dumps({"points": [{"x": round(x, 12), "y": round(y, 12)} for x, y in pts]}, separators=(",", ":"))


def as_answer(pts):
    return json.loads(points_answer(pts))


def valid(pts, sp):
    return q12_grade(as_answer(pts), sp)[0] == 1


def comb_loop(sp, width=None, height=None, offset=(0, 0)):
    pipes, side = SPECS[sp]
    width, height = width or side, height or side
    for teeth_first in (True, False):
        cells = comb_cells(width, height, pipes // 2 - 1, teeth_first)
        if cells:
            cyc = boundary_cycle(cells)
            if cyc and len(cyc) == pipes:
                cand = [(x + offset[0], y + offset[1]) for x, y in cyc]
                if valid(cand, sp):
                    return cand
    return None


def reference(sp):
    pipes, side = SPECS[sp]
    if sp == 0:
        return [(0.0, 0.0), (1.0, 0.0), (0.5, math.sqrt(3) / 2)]
    if sp == 10:
        return [(float(x), float(y)) for x, y in lattice_cycle(side + 1, pipes)]
    if sp == 12:  # curvy: every vertex a right angle
        return [(float(x), float(y)) for x, y in lattice_cycle(side + 1, pipes, all_turn=True)]
    if sp == 14:  # stay off the walls: a ladder of 15 + 15 zig-zag segments in the middle
        n, p = (pipes - 2) // 2, 0.29
        h = math.sqrt(1 - p * p)
        return ladder(n, p, (side - n * p) / 2, (side - 1 - h) / 2)
    if sp == 15:  # dense centre: a centred ladder
        n, p = (pipes - 2) // 2, 0.32
        h = math.sqrt(1 - p * p)
        return ladder(n, p, (side - n * p) / 2, (side - 1 - h) / 2)
    if sp in (16, 17):  # nudged comb (teeth along x), then one or two curls
        curls = 1 if sp == 16 else 2
        for theta_deg, length, w_cells, h_cells in ((12, 0.97, 5, 6), (12, 0.97, 6, 6), (9, 0.96, 6, 6)):
            theta = math.radians(theta_deg)
            d, t = length * math.cos(theta), length * math.sin(theta)
            cells = comb_cells(h_cells, w_cells, pipes // 2 - 1 - curls)
            if not cells:
                continue
            cyc = boundary_cycle({(y, x) for x, y in cells})  # transposed: the teeth run along x
            cyc = [(w_cells - i, j) for i, j in cyc]  # mirrored: they point to x = 0
            span_x, span_y = w_cells * d + t, h_cells * d + t
            ox, oy = (side - span_x) / 2, (side - span_y) / 2
            loop = add_curls(perturbed(cyc, d, t, ox, oy), sp, curls)
            if loop:
                return loop
        return None
    if sp == 18:  # centre start: nudged 7 x 7 lattice cycle through the centre point
        theta = math.radians(22.5)
        d, t = math.cos(theta), math.sin(theta)
        cyc = lattice_cycle(side, pipes, start=(3, 3))
        ox = 3.5 - 3 * d - t
        return perturbed(cyc, d, t, ox, ox)
    return comb_loop(sp)


def add_curls(base, sp, curls):
    for _ in range(curls):
        best = None
        for i in range(len(base)):
            for side_ in (1, -1):
                for w in (0.35, 0.3, 0.4):
                    cand = curl(base, i, w, side_)
                    kinds = q12_grade(as_answer(cand), sp)[2]
                    if all(k in ("count_mismatch", "exact_crossings") for k in kinds) and \
                            len(crossing_pairs(cand)) == len(crossing_pairs(base)) + 1:
                        best = cand
                        break
                if best:
                    break
            if best:
                break
        if best is None:
            return None
        base = best
    return base


# --------------------------------------------------------------------------------------------------
# Counterexamples
# --------------------------------------------------------------------------------------------------
def counterexamples(sp, ref):
    pipes, side = SPECS[sp]
    out = []

    def add(pts, why, kind=None):
        ans = as_answer(pts) if isinstance(pts, list) else pts
        score, _msg, kinds = q12_grade(ans, sp)
        assert score == 0, (sp, why)
        if kind is not None:
            assert kind in kinds, (sp, why, kinds)
        out.append((points_answer(pts) if isinstance(pts, list) else json.dumps(pts, separators=(",", ":")), why))

    add(ref[:-1], "one point short (and the loop no longer closes)", "count_mismatch")
    minx = min(x for x, _ in ref)
    add([(x - minx - 0.5, y) for x, y in ref], "the whole loop shifted half a unit past the left wall", "boundary")
    k = len(ref) // 2
    moved = list(ref)
    moved[k] = (ref[k][0] + 0.5 * (ref[k + 1][1] - ref[k][1]), ref[k][1] + 0.5 * (ref[k][0] - ref[k + 1][0]))
    add(moved, f"point {k} pushed half a unit sideways: two segments of the wrong length", "segment_length")
    add(ref[1:] + [ref[1]] if len(ref) > 3 else ref[:2] + [ref[0]], "a vertex used twice", "duplicate_vertex")
    # a self-crossing: reverse a stretch of the loop (2-opt move)
    if len(ref) >= 6:
        a, b = 1, len(ref) // 2
        crossed = ref[:a] + ref[a:b + 1][::-1] + ref[b + 1:]
        score, _m, kinds = q12_grade(as_answer(crossed), sp)
        if score == 0:
            add(crossed, "a stretch of the loop reversed (segments jump across)")
    # a curl: three unit-ish segments whose first and last cross (two points too many as well)
    for i in range(len(ref)):
        cand = next((c for c in (curl(ref, i, 0.3, 1), curl(ref, i, 0.3, -1))
                     if len(crossing_pairs(c)) == len(crossing_pairs(ref)) + 1), None)
        if cand:
            kinds = q12_grade(as_answer(cand), sp)[2]
            if "crossings" in kinds or "exact_crossings" in kinds:
                add(cand, f"a curl inserted at segment {i}: one more self-crossing")
                break
    # backtracking: a point folded back onto the previous segment
    bt = list(ref)
    j = 2
    bx, by = ref[j - 1]
    ax, ay = ref[j - 2]
    bt[j] = (bx + (ax - bx) * 0.95 + 0.03, by + (ay - by) * 0.95 + 0.03)
    add(bt, "a segment folding back onto the previous one", "backtrack")
    out.append(("{'points': [{'x': 0, 'y': 0}]}", "the schema-minimal 'always wrong' answer"))
    return out


def preset_counterexample(sp):
    """A loop that meets every check but its preset's (None where none was found)."""
    pipes, side = SPECS[sp]
    p = params(sp)
    if not p["complications"]:
        return None
    cands = []
    plain = comb_loop_unchecked(pipes, side)
    if plain:
        cands.append((plain, "a plain comb-shaped lattice loop"))
    n_l = (pipes - 2) // 2
    for pw in (0.3, 0.25, 0.2):
        if n_l * pw <= side - 0.1:
            cands.append((ladder(n_l, pw, 0.0, 0.0), "a zig-zag ladder in the bottom-left corner"))
            break
    res = []
    for pts, why in cands:
        score, msg, ks = q12_grade(as_answer(pts), sp)
        if score == 0 and ks and all(k not in ("count_mismatch", "boundary", "segment_length", "closure",
                                               "duplicate_vertex", "backtrack") for k in ks):
            res.append((pts, f"{why}: valid but for the preset ({', '.join(sorted(set(ks)))})"))
    return res


def comb_loop_unchecked(pipes, side):
    for teeth_first in (True, False):
        cells = comb_cells(side, side, pipes // 2 - 1, teeth_first)
        if cells:
            cyc = boundary_cycle(cells)
            if cyc and len(cyc) == pipes:
                return [(float(x), float(y)) for x, y in cyc]
    return None


def generate():
    for sp, (pipes, side) in enumerate(SPECS):
        ref = reference(sp)
        assert ref is not None, f"q12 sp{sp}: no reference"
        score, msg, _ = q12_grade(as_answer(ref), sp)
        assert score == 1, (sp, msg)
        counter = counterexamples(sp, ref)
        for pts, why in preset_counterexample(sp) or []:
            counter.append((points_answer(pts), why))
        p = params(sp)
        instance = {"pipes": pipes, "boundary": side, "tolerance": p["tolerance"], "preset": p["preset"],
                    "complications": p["complications"] or []}
        write_item(
            ITEMS, f"scbench/q12/{sp}", MODULE, points_answer(ref), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q12 Pipe Loop Fitting, subpass {sp}: {SOURCE}",
             "problem": p["summary"],
             "construction_instruction": prompt(sp) +
             "\n\nAnswer with JSON {\"points\": [{\"x\": number, \"y\": number}, ...]}."},
            instance,
            {"fuel": 800_000_000, "memory_bytes": 67_108_864, "timeout_ms": 10_000})
        print(f"q12/{sp}: {pipes} pipes in {side}x{side} ({p['preset']}): {msg}")
