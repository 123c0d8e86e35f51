"""SCBench Q57 Two Segments (VGB5): `57.py` (commit 0ac70f2) over `data/vgb/two_segments_curated.jsonl`
(27 rows, commit fefbda7), copied whole in registry/tools/data/scbench/two_segments_curated.jsonl.
The instance is the row's `datagen_args` (counts, snap_decimals, coordinate_grid, corners, …).

The dataset stores no segments (its `ground_truth` is the list of shape counts), so each reference
witness is found here: a deterministic search over chords with endpoints on a coarse grid of the
unit square's boundary (the row's coordinate grid where it has one), counting the faces exactly
(fractions, convex splitting) and keeping the first pair whose counts equal the row's; endpoints
are then mapped onto the row's square through its corners 0, 1 and 3.
"""

import itertools
import json
from fractions import Fraction as F

from common import DATA, ITEMS, SOURCE_REPO, write_item

SHAPES = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon"}
LIMITS = {"fuel": 25_000_000, "memory_bytes": 33_554_432, "timeout_ms": 2_000}


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def split(poly, p, q):
    """A convex polygon cut by the line p-q: the one or two pieces of positive area."""
    sides = [cross(p, q, v) for v in poly]
    if all(s >= 0 for s in sides) or all(s <= 0 for s in sides):
        return [poly]
    left, right = [], []
    for i, v in enumerate(poly):
        w, sv, sw = poly[(i + 1) % len(poly)], sides[i], sides[(i + 1) % len(poly)]
        if sv >= 0:
            left.append(v)
        if sv <= 0:
            right.append(v)
        if sv * sw < 0:
            t = sv / (sv - sw)
            x = (v[0] + t * (w[0] - v[0]), v[1] + t * (w[1] - v[1]))
            left.append(x)
            right.append(x)
    return [left, right]


def corners_of(poly):
    """Vertices that are real corners (collinear ones dropped)."""
    n = len(poly)
    return [poly[i] for i in range(n) if cross(poly[i - 1], poly[i], poly[(i + 1) % n]) != 0]


def face_counts(chords):
    """Shape counts of the unit square cut by proper chords (endpoints on the boundary)."""
    faces = [[(F(0), F(0)), (F(1), F(0)), (F(1), F(1)), (F(0), F(1))]]
    for p, q in chords:
        faces = [piece for f in faces for piece in split(f, p, q)]
    counts = {}
    for f in faces:
        shape = SHAPES.get(len(corners_of(f)))
        if shape:
            counts[shape] = counts.get(shape, 0) + 1
    return counts


def boundary_points(values):
    pts = set()
    for v in values:
        v = F(v).limit_denominator(1000)
        pts |= {(v, F(0)), (v, F(1)), (F(0), v), (F(1), v)}
    return sorted(pts)


def proper(p, q):
    """A chord: distinct ends, not both on one edge."""
    if p == q:
        return False
    return not any(p[k] == q[k] and p[k] in (0, 1) for k in (0, 1))


def search(counts, values, skip=()):
    pts = boundary_points(values)
    chords = [(p, q) for p, q in itertools.combinations(pts, 2) if proper(p, q)]
    for c1, c2 in itertools.combinations(chords, 2):
        if (c1, c2) in skip:
            continue
        if face_counts([c1, c2]) == counts:
            return c1, c2
    raise RuntimeError(f"no pair of chords gives {counts}")


def to_square(args, p):
    """Unit-square point (a, b) on the row's square: c0 + a·(c1 − c0) + b·(c3 − c0)."""
    a, b = float(p[0]), float(p[1])
    c = args.get("corners")
    if not c:
        return [a, b]
    u = (c[1][0] - c[0][0], c[1][1] - c[0][1])
    v = (c[3][0] - c[0][0], c[3][1] - c[0][1])
    return [c[0][0] + a * u[0] + b * v[0], c[0][1] + a * u[1] + b * v[1]]


def answer(args, chords):
    return json.dumps({"segments": [[to_square(args, p) for p in c] for c in chords]})


def phrase(counts):
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in SHAPES.values() if s in counts]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def generate():
    rows = [json.loads(line) for line in (DATA / "two_segments_curated.jsonl").read_text().splitlines()]
    for sp, row in enumerate(rows):
        args = row["datagen_args"]
        counts = dict(args["counts"])
        grid = args.get("coordinate_grid")
        values = grid or [0, 0.2, 0.4, 0.5, 0.6, 0.8, 1]
        c1, c2 = search(counts, values)
        # A valid pair with other counts; a point off the grid where there is a grid.
        other = next((c1b, c2b) for c1b, c2b in itertools.combinations(
            [(p, q) for p, q in itertools.combinations(boundary_points(values), 2) if proper(p, q)], 2)
            if face_counts([c1b, c2b]) != counts)
        half = (F(1, 2), F(1, 2))
        corner_edge = ((F(0), F(0)), (F(1), F(0)))
        counter = [
            (answer(args, other), f"two chords whose faces are {phrase(face_counts(list(other)))}, not the required counts"),
            (answer(args, [(c1[0], half), c2]), "an endpoint in the middle of the square, off the boundary"),
            (answer(args, [(c1[0], c1[0]), c2]), "a degenerate segment (both endpoints equal)"),
            (answer(args, [corner_edge, c2]), "a segment lying along the square's bottom edge"),
            (json.dumps({"segments": [[to_square(args, p) for p in c1]]}), "only one segment (parse failure)"),
            ("{'segments': [[[0, 0], [0, 0]], [[0, 0], [0, 0]]]}", "the schema-minimal 'always wrong' answer"),
        ]
        if grid:
            off = next(v for v in (F(1, 20), F(3, 100), F(1, 7)) if all(abs(v - F(g)) > F(1, 100) for g in grid))
            counter.append((answer(args, [((off, F(0)), c1[1]), c2]),
                            f"an endpoint at x = {float(off)}, off the coordinate grid"))
        square = "the unit square" if args.get("square") == "unit" else "a given square"
        write_item(
            ITEMS, f"scbench/q57/{sp}", "scbench-q57-two-segments", answer(args, (c1, c2)), counter,
            {"benchmark": "scbench", "type": "construction", "category": "axiomatic",
             "source": f"SCBench Q57 Two Segments (VGB5), subpass {sp}: {SOURCE_REPO} 57.py @ 0ac70f2, "
                       f"data/vgb/two_segments_curated.jsonl @ fefbda7 row {sp} (id {row['id']}); verifier "
                       "jashvira/VisGeomBench visual_geometry_bench/verification/two_segments.py @ 8acfef2",
             "problem": f"Two boundary-to-boundary segments cutting {square} into exactly {phrase(counts)} "
                        f"({row['metadata']['difficulty']})",
             "construction_instruction": row["prompt"] +
             "\n\nAnswer with JSON {\"segments\": [[[x0, y0], [x1, y1]], [[x2, y2], [x3, y3]]]}."},
            args, LIMITS)
        print(f"q57/{sp}: {counts} <- {[[tuple(map(float, p)) for p in c] for c in (c1, c2)]}")
