"""SCBench Q29 "Cage match": `29.py` (commit 5132ab6 of ashleyharris-maptek-com-au/SpatialCompetenceBenchmark),
the prompt rebuilt from its template. One model answer is graded as nine subpasses
(`extraGradeAnswerRuns`); each item `scbench/q29/<S>` grades an answer against subpass S.

Reference witness: a cage of 10 STL parts designed here (bottom and top grids, and each wall in a
lower and an upper panel), meshed from axis-aligned boxes on a rectilinear grid into closed,
outward-wound triangle meshes (coplanar cell faces merged into rectangles, T-junctions resolved by
fanning from the rectangle centre). Bars are 10 mm square with 78-80 mm gaps; each corner column
is split through the rod axis between its two walls, with a 6 mm square hole for the M6 rod.
Subpass 5's item uses ten identical cubes instead: the original's pair test computes
`intersection(a, difference(a, b))` = a - b, which every assembly of disjoint parts fails, so only
nested parts can pass it (the cage is that item's counterexample, passing `details.corrected`).

Subpass 2's random cubes: the original draws them unseeded; here `random.Random(29)` in the
original's order (per test: 40 mm cube x, y in [-120, 120], then 101 mm cube x, y in [-160, 160]).
"""

import json
import random

from common import ITEMS, SOURCE_REPO, write_item

MODULE = "scbench-q29-cage-match"
TITLE = "Cage match. Can LLMs design interlocking parts for 3D printing?"

PROMPT = """I would like you to generate a cage of internal size 350 x 350 x 700 mm. 

The cage should feature an all-around grid of 10mm thick bars, each with a square cross section. No thinner, no thicker.

The gap between bars should be between 5cm and 10cm, and uniform all over the model.

The cage needs to be split into parts that can be 3D printed on a 3D printer, with a build area
of 400x400x50mm.

The cage assembly should be held together by 4 x M6 threaded rods threaded through the middle
of the 4 vertical corner bars. You do not need to carve a female thread or nut slots into your parts,
but should ensure that a rod fits with adequete clearence into every hole. Use no additional connectors. Do not include
a door or lid.

Generate all parts that are needed for this project. They should be:
- ready to slice
- print without supports.
- orientated such that they fit within the build volume
- sitting on z=0 plane.
- not going to fall over during printing.
- valid shapes - watertight, closed solids with no self intersections.
- As few parts as possible.
- Use as little build volume of the 3D printer as possible.

For each part file, you may provide an STL file, or OpenSCAD file that generates it, or a python script that 
generates either the OpenSCAD or the STL. Provide all parts in one go into the supplied output structure.

For each part, include a rigid transform matrix (4x4 row major) that shows where the part sits in 3D space when assembled, in
your assembled 3D space, the cage sits on the z=0 plane and centred in x & y around 0,0.
Take care to get this projection right as it will be used to test whether the parts fit together correctly."""

SCHEMA = ('Answer with JSON {"reasoning": "...", "parts": [{"fileContents": "<STL text, OpenSCAD source, or a '
          'Python script printing either>", "fileType": "STL" | "OpenSCAD" | "Python Generating OpenSCAD" | '
          '"Python Generating STL", "transform": [16 numbers: the 4x4 row-major rigid transform placing the part '
          'in the assembly]}, ...]}.')

SUBPASSES = [
    "every part builds as a valid closed volume (non-empty, non-zero volume, watertight, consistent winding, "
    "one body)",
    "0.1 per part that fits the 400 x 400 x 50 mm build volume",
    "bar gaps by random cubes: per printed part, some 40 mm cubes miss it and every 101 mm cube hits it",
    "cage size: the assembly clears a 340 x 340 x 680 block and stays inside 380 x 380 x 740",
    "rods: 5 mm rods at (+-180, +-180) clear the cage, 16 mm rods bear on it",
    "no two posed parts intersect (as coded: part a minus part b must be empty for a < b)",
    "every posed part is pierced by at least two of the four 16 mm rods",
    "bar thickness ~10 mm by ray casts on every part",
    "bar gaps 50-100 mm by ray casts on the assembled cage",
]

# --- the reference cage -------------------------------------------------------------------------
BARS = [(-185, -175), (-95, -85), (-5, 5), (85, 95), (175, 185)]
INNER = BARS[1:4]
RINGS_LOW = [(90, 100), (180, 190), (268, 278), (356, 366)]
RINGS_UP = [(444, 454), (532, 542), (620, 630)]
LOW, UP = (10, 366), (366, 710)


def span(a, b):
    return (min(a, b), max(a, b))


def grid_part(z):
    """Bottom or top grid: 5 x 5 bars, rod holes at the corners."""
    adds = [((-185, 185), b, z) for b in BARS] + [(b, (-185, 185), z) for b in BARS]
    subs = [(span(sx * 177, sx * 183), span(sy * 177, sy * 183), z) for sx in (-1, 1) for sy in (-1, 1)]
    return adds, subs


def wall_ns(sy, zr, rings):
    """North (sy=1) or south (sy=-1) panel: the outer half (|y| >= 180) of both corner columns."""
    wall = span(sy * 175, sy * 185)
    adds = [(b, wall, zr) for b in INNER] + [((-175, 175), wall, r) for r in rings]
    adds += [(span(sx * 175, sx * 185), span(sy * 180, sy * 185), zr) for sx in (-1, 1)]
    subs = [(span(sx * 177, sx * 183), span(sy * 177, sy * 183), zr) for sx in (-1, 1)]
    return adds, subs


def wall_ew(sx, zr, rings):
    """East (sx=1) or west (sx=-1) panel: the inner half (|y| <= 180) of both corner columns."""
    wall = span(sx * 175, sx * 185)
    adds = [(wall, b, zr) for b in INNER] + [(wall, (-175, 175), r) for r in rings]
    adds += [(wall, span(sy * 175, sy * 180), zr) for sy in (-1, 1)]
    subs = [(span(sx * 177, sx * 183), span(sy * 177, sy * 183), zr) for sy in (-1, 1)]
    return adds, subs


def pose(rows, t):
    """Row-major 4x4 from a 3x3 rotation (print axes -> assembly) and a translation."""
    return [rows[0][0], rows[0][1], rows[0][2], t[0], rows[1][0], rows[1][1], rows[1][2], t[1],
            rows[2][0], rows[2][1], rows[2][2], t[2], 0, 0, 0, 1]


ROT_N = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
ROT_S = [[-1, 0, 0], [0, 0, 1], [0, 1, 0]]
ROT_E = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
ROT_W = [[0, 0, -1], [-1, 0, 0], [0, 1, 0]]
IDENT = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]


def cage_specs(bar=10):
    """(name, adds, subs, transform) of the ten parts, in assembly coordinates."""
    specs = [("bottom grid", *grid_part((0, 10)), pose(IDENT, (0, 0, 0)))]
    for zr, rings, tz, level in ((LOW, RINGS_LOW, 188, "lower"), (UP, RINGS_UP, 538, "upper")):
        specs.append((f"north {level} panel", *wall_ns(1, zr, rings), pose(ROT_N, (0, 185, tz))))
        specs.append((f"east {level} panel", *wall_ew(1, zr, rings), pose(ROT_E, (175, 0, tz))))
        specs.append((f"south {level} panel", *wall_ns(-1, zr, rings), pose(ROT_S, (0, -185, tz))))
        specs.append((f"west {level} panel", *wall_ew(-1, zr, rings), pose(ROT_W, (-175, 0, tz))))
    specs.append(("top grid", *grid_part((710, 720)), pose(IDENT, (0, 0, 710))))
    return specs


# --- meshing boxes on a rectilinear grid ----------------------------------------------------------
def box_mesh(adds, subs):
    """Closed outward-wound triangles (assembly coordinates) of union(adds) - union(subs)."""
    coords = [sorted({c for b in adds + subs for c in b[a]}) for a in range(3)]
    n = [len(c) - 1 for c in coords]

    def inside(p, b):
        return all(b[a][0] < p[a] < b[a][1] for a in range(3))

    filled = {}
    for i in range(n[0]):
        for j in range(n[1]):
            for k in range(n[2]):
                p = [(coords[a][x] + coords[a][x + 1]) / 2 for a, x in enumerate((i, j, k))]
                filled[i, j, k] = any(inside(p, b) for b in adds) and not any(inside(p, b) for b in subs)

    def cell(idx):
        return all(0 <= idx[a] < n[a] for a in range(3)) and filled[tuple(idx)]

    rects = []  # (axis, plane index, sign, u0, u1, v0, v1) in grid-point indices
    for a in range(3):
        u, v = (a + 1) % 3, (a + 2) % 3
        for p in range(n[a] + 1):
            for sign in (1, -1):
                grid = {}
                for iu in range(n[u]):
                    for iv in range(n[v]):
                        lo, hi = [0, 0, 0], [0, 0, 0]
                        lo[a], lo[u], lo[v] = p - 1, iu, iv
                        hi[a], hi[u], hi[v] = p, iu, iv
                        below, above = cell(lo), cell(hi)
                        grid[iu, iv] = below != above and (below if sign == 1 else above)
                used = set()
                for iu in range(n[u]):
                    for iv in range(n[v]):
                        if not grid[iu, iv] or (iu, iv) in used:
                            continue
                        w = 1
                        while iv + w < n[v] and grid[iu, iv + w] and (iu, iv + w) not in used:
                            w += 1
                        h = 1
                        while iu + h < n[u] and all(grid[iu + h, iv + d] and (iu + h, iv + d) not in used
                                                     for d in range(w)):
                            h += 1
                        for du in range(h):
                            for dv in range(w):
                                used.add((iu + du, iv + dv))
                        rects.append((a, p, sign, iu, iu + h, iv, iv + w))

    def point(a, p, uu, vv):
        idx = [0, 0, 0]
        idx[a], idx[(a + 1) % 3], idx[(a + 2) % 3] = p, uu, vv
        return tuple(idx)

    corners = set()
    for a, p, _, u0, u1, v0, v1 in rects:
        for uu in (u0, u1):
            for vv in (v0, v1):
                corners.add(point(a, p, uu, vv))
    lines = {}  # (axis, the other two indices) -> indices along the axis
    for c in corners:
        for axis in range(3):
            lines.setdefault((axis,) + tuple(c[x] for x in range(3) if x != axis), []).append(c[axis])

    def between(q, r):
        """Corner points strictly inside the grid segment q-r (axis-aligned)."""
        axis = next(x for x in range(3) if q[x] != r[x])
        lo, hi = sorted((q[axis], r[axis]))
        along = lines.get((axis,) + tuple(q[x] for x in range(3) if x != axis), [])
        out = []
        for value in sorted((t for t in along if lo < t < hi), reverse=q[axis] > r[axis]):
            c = list(q)
            c[axis] = value
            out.append(tuple(c))
        return out

    def real(idx):
        return tuple(coords[x][idx[x]] for x in range(3))

    tris = []
    for a, p, sign, u0, u1, v0, v1 in rects:
        loop = [point(a, p, u0, v0), point(a, p, u1, v0), point(a, p, u1, v1), point(a, p, u0, v1)]
        if sign == -1:
            loop.reverse()
        full = []
        for q, r in zip(loop, loop[1:] + loop[:1]):
            full.append(q)
            full.extend(between(q, r))
        pts = [real(q) for q in full]
        if len(full) == 4:
            tris += [(pts[0], pts[1], pts[2]), (pts[0], pts[2], pts[3])]
        else:
            lo = real(loop[0])
            hi = real(loop[2])
            c = tuple((lo[k] + hi[k]) / 2 for k in range(3))
            tris += [(c, pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
    return tris


def to_print(tris, transform):
    """Assembly coordinates -> print coordinates (inverse of the rigid transform)."""
    r = [[transform[4 * i + j] for j in range(3)] for i in range(3)]
    t = [transform[4 * i + 3] for i in range(3)]
    out = []
    for tri in tris:
        out.append(tuple(tuple(sum(r[i][k] * (p[i] - t[i]) for i in range(3)) for k in range(3)) for p in tri))
    return out


def check_closed(tris):
    """Every directed edge once, its reverse once; returns the triangle count."""
    edges = {}
    for t in tris:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            edges[a, b] = edges.get((a, b), 0) + 1
    for (a, b), c in edges.items():
        assert c == 1 and edges.get((b, a)) == 1, (a, b)
    return len(tris)


def num(x):
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def normal(t):
    u = [t[1][k] - t[0][k] for k in range(3)]
    v = [t[2][k] - t[0][k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    m = max(abs(x) for x in n) or 1
    return [x / m if abs(x) == m else 0 for x in n]


def stl(tris, name="part"):
    lines = [f"solid {name}"]
    for t in tris:
        lines.append("facet normal " + " ".join(num(x) for x in normal(t)) + " outer loop "
                     + " ".join("vertex " + " ".join(num(c) for c in p) for p in t) + " endloop endfacet")
    lines.append(f"endsolid {name}")
    return "\n".join(lines) + "\n"


def box_tris(x, y, z):
    return box_mesh([(x, y, z)], [])


def part(tris, transform, name="part"):
    return {"fileContents": stl(tris, name), "fileType": "STL", "transform": transform}


def answer(parts, reasoning):
    return json.dumps({"reasoning": reasoning, "parts": parts}, separators=(",", ":"))


def cage_answer():
    parts = []
    for i, (name, adds, subs, transform) in enumerate(cage_specs()):
        tris = to_print(box_mesh(adds, subs), transform)
        check_closed(tris)
        parts.append(part(tris, transform, f"p{i}"))
    return answer(parts, "Bottom and top grids and eight wall panels (each wall in a lower and an upper "
                         "half), 10 mm bars with 78-80 mm gaps; each corner column is split through the rod "
                         "axis between its two walls, with a 6 mm square hole for the M6 rod.")


def cube_tris(c=(0, 0, 5), s=10):
    h = s / 2
    return box_tris((c[0] - h, c[0] + h), (c[1] - h, c[1] + h), (c[2] - h, c[2] + h))


IDENTITY = pose(IDENT, (0, 0, 0))


def cubes(n=10, transforms=None, tris=None):
    tris = tris or cube_tris()
    transforms = transforms or [IDENTITY] * n
    return answer([part(tris, transforms[i]) for i in range(n)], "ten 10 mm cubes")


def translate(x, y, z):
    return pose(IDENT, (x, y, z))


def counterexamples(sp, cage):
    cube = cube_tris()
    open_cube = cube[:-1]
    two = cube + cube_tris((30, 0, 5))
    inverted = [(t[0], t[2], t[1]) for t in cube]
    plate = box_tris((-185, 185), (-185, 185), (0, 10))
    placebo = ('{"reasoning": "", "parts": []}', "the schema-minimal answer: no parts (too few)")
    nine = (cubes(9), "nine parts (the original requires exactly 10)")
    broken = (answer([part(open_cube, IDENTITY)] + [part(cube, IDENTITY)] * 9, "one open cube"),
              "part 0 is an open mesh (one facet missing): subpass 0 fails, so every later subpass fails")
    scad = (answer([{"fileContents": "cube([10, 10, 10]);", "fileType": "OpenSCAD", "transform": IDENTITY}]
                   + [part(cube, IDENTITY)] * 9, "one OpenSCAD part"),
            "part 0 is OpenSCAD source: verigate cannot build it, so the answer cannot pass")
    common = [placebo, broken, scad]
    if sp == 0:
        return common + [
            nine,
            (cubes(11), "eleven parts"),
            (answer([part(two, IDENTITY)] + [part(cube, IDENTITY)] * 9, "two bodies"),
             "part 0 holds two disjoint cubes (two bodies)"),
            (answer([part(inverted, IDENTITY)] + [part(cube, IDENTITY)] * 9, "inside out"),
             "part 0 is wound inside out (negative volume: not a valid closed volume)"),
            (answer([{"fileContents": "print('solid x')", "fileType": "Python Generating STL",
                      "transform": IDENTITY}] + [part(cube, IDENTITY)] * 9, "python"),
             "part 0 is a Python script: verigate does not run model code"),
            (answer([{"fileContents": "x", "fileType": "STEP", "transform": IDENTITY}]
                    + [part(cube, IDENTITY)] * 9, "step"), "part 0 has an unknown file type"),
        ]
    if sp == 1:
        bar = box_tris((-250, 250), (-5, 5), (0, 10))
        sunk = cube_tris((0, 0, 2))
        return common + [
            (answer([part(bar, IDENTITY)] + [part(cube, IDENTITY)] * 9, "a 500 mm bar"),
             "part 0 is 500 mm long, outside the 400 mm print bed (score 0.9)"),
            (answer([part(sunk, IDENTITY)] + [part(cube, IDENTITY)] * 9, "sunk"),
             "part 0 reaches 3 mm below the build plate (score 0.9)"),
        ]
    if sp == 2:
        return common + [
            (cubes(), "ten 10 mm cubes: 101 mm cubes pass beside them"),
            (cubes(tris=plate), "ten solid 370 mm plates: every 40 mm cube hits them (no gaps)"),
        ]
    if sp == 3:
        return common + [
            (cubes(transforms=[translate(0, 0, 300)] * 10), "every part posed inside the cage's interior"),
            (cubes(transforms=[translate(250, 0, 0)] * 10), "every part posed outside 380 x 380 x 740"),
        ]
    if sp == 4:
        return common + [
            (cubes(), "ten small cubes at the centre: the 16 mm rods touch nothing (too much clearance)"),
            (cubes(tris=plate), "solid plates: the 5 mm rods cannot pass"),
        ]
    if sp == 5:
        offset = [translate(0, 0, 0), translate(5, 0, 0)] + [translate(0, 0, 20 * i) for i in range(2, 10)]
        return common + [
            (cage, "the reference cage: its parts are disjoint, so part 0 minus part 1 is part 0 and the "
                   "original's test reports an intersection (details.corrected passes it)"),
            (cubes(transforms=offset), "parts 0 and 1 overlap by half"),
        ]
    if sp == 6:
        return common + [(cubes(), "small cubes at the centre: no rod holds any part")]
    if sp == 7:
        thin_bars = [(-184, -176), (-94, -86), (-4, 4), (86, 94), (176, 184)]
        thin = box_mesh([((-184, 184), b, (0, 8)) for b in thin_bars]
                        + [(b, (-184, 184), (0, 8)) for b in thin_bars], [])
        return common + [
            (cubes(), "10 mm cubes: no facet qualifies (end caps only), no thickness samples"),
            (answer([part(thin, IDENTITY)] + [part(cube, IDENTITY)] * 9, "thin grid"),
             "part 0 is a grid of 8 mm bars (dominant thickness ~7.95 mm); the other parts are cubes"),
        ]
    if sp == 8:
        return common + [(cubes(), "small cubes: no gap samples")]
    raise ValueError(sp)


def cube_draws():
    rng = random.Random(29)
    c40, c101 = [], []
    for _ in range(100):
        c40.append([rng.uniform(-120, 120), rng.uniform(-120, 120)])
        c101.append([rng.uniform(-160, 160), rng.uniform(-160, 160)])
    return c40, c101


def generate():
    cage = cage_answer()
    identical = cubes()
    c40, c101 = cube_draws()
    for sp in range(9):
        instance = {"subpass": sp}
        if sp == 2:
            instance.update({"seed": 29, "cubes_40mm": c40, "cubes_101mm": c101})
        reference = identical if sp == 5 else cage
        write_item(
            ITEMS, f"scbench/q29/{sp}", MODULE, reference, counterexamples(sp, cage),
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q29 {TITLE} subpass {sp} (one answer graded as subpasses 0-8): "
                       f"{SOURCE_REPO} 29.py @ 5132ab6",
             "problem": f"Ten interlocking 3D-printable cage parts; subpass {sp}: {SUBPASSES[sp]}",
             "construction_instruction": PROMPT + "\n\n" + SCHEMA},
            instance,
            {"fuel": 40_000_000_000, "memory_bytes": 268_435_456, "timeout_ms": 30_000,
             "max_payload_bytes": 16_777_216})
        print(f"q29/{sp}: reference {len(reference)} bytes")
