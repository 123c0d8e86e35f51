#!/usr/bin/env python3
"""Generate the SCBench registry items (registry/items/scbench/) from the original task parameters.

Source: ashleyharris-maptek-com-au/SpatialCompetenceBenchmark (the paper's "SCBench").
  Q9 Hamiltonian Loop: `9.py`, index id 53491383584 (10 subpasses, `testParams` copied below verbatim,
  grid strings parsed as `_parse_grid_to_blocked` does: top text line = highest y).
  Q56 Shikaku Rectangles: `56.py` over `data/vgb/shikaku_curated.jsonl` (6 rows, commit 2b50104),
  whose `id`, `ground_truth` and `puzzle` are copied in registry/tools/data/scbench/shikaku_curated.jsonl.
  Q51 Topology Enumeration: `51.py` over `data/vgb/topology_enumeration_curated.jsonl` (10 rows,
  commit 60e6f99); Q53 Classify Behaviour: `53.py` over `topology_edge_classify_curated.jsonl`
  (13 rows, commit 99712ef). Their prompts are the dataset's, rebuilt from the same templates.
  Q6 Voxel Grid Projection: `6.py` (sizes and counts copied below); reference voxel sets from the
  seeded constructive search below.
  Q7 3D Maze: `7.py` (sizes, A/B heights and required jumps copied below); reference mazes from the
  seeded serpentine construction below, each checked with a port of the grader before it is written.
  Q11 Hyper-Snake: `11.py` (problem table copied below, from the research digest of commit 1012895);
  reference paths from a seeded Warnsdorff search.
  Q55 Delaunay Triangulation: `55.py` over `data/vgb/delaunay_dataset.jsonl` (25 rows, commit fefbda7);
  the copied rows are checked against an exact Delaunay triangulation of the points as shown.

Q9's reference witnesses are produced by the small deterministic solver below; Q56's are the
dataset's ground truth. The items are reproducible without the repository.

Usage: python3 registry/tools/scbench.py   (rewrites registry/items/scbench/q{6,7,9,11,51,53,55,56}/*)
"""

import json
import random
import sys
from pathlib import Path

from itemfiles import write_item

ROOT = Path(__file__).resolve().parents[2]
ITEMS = ROOT / "registry" / "items" / "scbench"
SOURCE_REPO = "ashleyharris-maptek-com-au/SpatialCompetenceBenchmark"

# --- Q9: testParams of 9.py (id 53491383584), (size, blocked set or grid string, summary, twist) ---
Q9_HOLES_7 = """
................
.X............X.
................
................
.X............X.
................
................
................
................
................
................
.X............X.
................
................
.X............X.
................
"""
Q9_HOLES_8 = """
................
.X............X.
................
................
.X............X.
................
................
.......XX.......
.......XX.......
................
................
.X............X.
................
................
.X............X.
................
"""
Q9_HOLES_9 = """
XX..............
XX............X.
XX............X.
XX............X.
XX............X.
................
................
.......XX.......
.......XX.......
................
................
XXXX..........X.
................
.XX.............
.XX...........X.
................
"""
Q9_PARAMS = [
    (4, set(), "4x4 grid", ""),
    (4, "....\n.X..\n.X..\n....", "4x4 grid with 2 cells blocked", None),
    (8, set(), "8x8 grid", ""),
    (12, set(), "12x12 grid", ""),
    (16, set(), "16x16 grid", ""),
    (16, {(3, 3), (3, 4)}, "16x16 grid with cells (3,3) and (3,4) removed",
     "Cells 3,3 and 3,4 have been removed from the grid and must be skipped."),
    # The prompt text of this subpass names other cells than the grader blocks (original bug, kept).
    (16, {(12, 3), (12, 4), (5, 3), (5, 4), (7, 10), (8, 10)},
     "16x16 grid with cells (12, 6), (12, 6), (5, 6), (5, 5), (7, 10), (8, 10) are removed.",
     "(12, 5), (12, 6), (5, 5), (5, 6), (7, 10), (8, 10) are removed from the grid and must be skipped."),
    (16, Q9_HOLES_7, "16x16 grid where various holes exist.", None),
    (16, Q9_HOLES_8, "16x16 grid where various holes exist.", None),
    (16, Q9_HOLES_9, "16x16 grid where various holes exist.", None),
]

Q9_PROMPT = """
You have a SIZE*SIZE grid of unit squares, with cell coordinates (x, y) where 1 <= x <= SIZE, 1 <= y <= SIZE.

TWIST

Draw a single closed path that:
- Moves from cell to cell using only side-adjacent moves.
- Visits every cell exactly once.
- Returns to its starting cell (so the path is a loop).
- The last cell in your list must be side-adjacent to the first.

Answer format:
Give an ordered list of the SQUARED cell coordinates for the loop, starting anywhere, for example:

1,1
1,2
1,3
...
2,1
"""


def parse_grid_to_blocked(grid):
    """`_parse_grid_to_blocked` of 9.py: 'X' cells as 1-based (x, y), top text line = highest y."""
    lines = grid.strip().split("\n")
    return {(x + 1, len(lines) - row) for row, line in enumerate(lines) for x, ch in enumerate(line) if ch == "X"}


def q9_prompt(size, blocked, twist):
    """`prepareSubpassPrompt` of 9.py."""
    if twist is None and blocked:
        grid = [["." for _ in range(size)] for _ in range(size)]
        for x, y in blocked:
            grid[y - 1][x - 1] = "X"
        twist = "\n".join("".join(r) for r in grid) + "\n\nX represents a cell to be skipped. Top Left is 1,1"
    valid = size * size - len(blocked)
    return Q9_PROMPT.replace("SIZE", str(size)).replace("SQUARED", str(valid)).replace("TWIST", twist or "")


def hamiltonian_cycle(size, blocked, seeds=200, max_nodes=3000):
    """A Hamiltonian cycle of the grid minus `blocked` as a list of (x, y), or None.

    Even empty grids get a comb; otherwise a depth-first search (fewest-exits-first with seeded
    random tie-breaks, degree-2 and connectivity cuts) restarted with seeds 0, 1, ... and a
    node budget per seed, so the output is deterministic.
    """
    if not blocked and size % 2 == 0:
        # Row 1 left to right, then a comb up and down over columns size..2, back along column 1.
        comb = [(x, 1) for x in range(1, size + 1)]
        for x in range(size, 1, -1):
            ys = range(2, size + 1) if x % 2 == size % 2 else range(size, 1, -1)
            comb += [(x, y) for y in ys]
        return comb + [(1, y) for y in range(size, 1, -1)]
    sys.setrecursionlimit(10000)
    cells = [(x, y) for y in range(1, size + 1) for x in range(1, size + 1) if (x, y) not in blocked]
    free = set(cells)
    nb = {c: [(c[0] + dx, c[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
              if (c[0] + dx, c[1] + dy) in free] for c in cells}
    start = min(cells, key=lambda c: (len(nb[c]), c))

    for seed in range(seeds):
        rng = random.Random(seed)
        path, used, nodes = [start], {start}, [0]

        def feasible(around):
            # Every unvisited cell next to the move still needs two ways in/out, and the
            # unvisited cells must stay connected to the head.
            if not all(c in used or sum(1 for m in nb[c] if m not in used or m in (path[-1], start)) >= 2
                       for c in around):
                return False
            todo, seen = [path[-1]], {path[-1]}
            while todo:
                for m in nb[todo.pop()]:
                    if m not in used and m not in seen:
                        seen.add(m)
                        todo.append(m)
            return len(seen) == len(cells) - len(path) + 1

        def dfs():
            nodes[0] += 1
            if nodes[0] > max_nodes:
                return False
            head = path[-1]
            if len(path) == len(cells):
                return start in nb[head]
            moves = [m for m in nb[head] if m not in used]
            rng.shuffle(moves)
            moves.sort(key=lambda m: sum(k not in used for k in nb[m]))
            for m in moves:
                path.append(m)
                used.add(m)
                if feasible(nb[head] + nb[m]) and dfs():
                    return True
                path.pop()
                used.discard(m)
            return False

        if dfs():
            return path
    return None


def steps_answer(cells):
    return json.dumps({"steps": [{"xy": [x, y]} for x, y in cells]}, separators=(",", ":"))


def q9():
    for sp, (size, blocked, _summary, twist) in enumerate(Q9_PARAMS):
        if isinstance(blocked, str):
            blocked = parse_grid_to_blocked(blocked)
        cycle = hamiltonian_cycle(size, blocked)
        assert cycle is not None, f"q9 sp{sp}: no Hamiltonian cycle"
        expected = size * size - len(blocked)
        swapped = cycle[:]
        swapped[1], swapped[2] = swapped[2], swapped[1]
        counter = [
            (steps_answer(cycle[:-1]), "one step short"),
            (steps_answer(swapped), "two steps swapped: not side-adjacent"),
            (steps_answer(cycle[:2] + [cycle[0]] + cycle[3:]), "steps back onto the first cell"),
            ("{'steps': [{'xy': [0]}], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        if blocked:
            counter.append((steps_answer(cycle[:1] + [min(blocked)] + cycle[2:]), "visits a blocked cell"))
        write_item(
            ITEMS, f"scbench/q9/{sp}", "scbench-q9-hamiltonian-loop", steps_answer(cycle), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q9 Hamiltonian Loop, subpass {sp}: {SOURCE_REPO} 9.py (index id 53491383584)",
             "problem": f"Hamiltonian loop on a {size}x{size} grid with {len(blocked)} blocked cells",
             "construction_instruction": q9_prompt(size, blocked, twist).strip() +
             "\n\nAnswer with JSON {\"steps\": [{\"xy\": [x, y]}, ...]}."},
            {"size": size, "blocked": sorted(blocked), "expected_steps": expected})
        print(f"q9/{sp}: size {size}, {len(blocked)} blocked, {expected} steps")


SHIKAKU_PROMPT = """Solve the Shikaku puzzle on a {h}×{w} grid.
Cells contain numbers indicating the area of the rectangle that must cover them;
all blank cells are denoted by 0.
Grid (rows listed top to bottom, values space-separated):
{grid}

Return the solution as a Python list of bounding boxes.
Each rectangle must be [left_col, top_row, right_col, bottom_row] using 0-indexed inclusive coordinates.
Rectangles must exactly partition the grid and each must contain exactly one clue equal to its area."""


def rectangles_answer(boxes):
    return json.dumps({"rectangles": boxes}, separators=(",", ":"))


def q56():
    rows = (ROOT / "registry/tools/data/scbench/shikaku_curated.jsonl").read_text().splitlines()
    for sp, line in enumerate(rows):
        row = json.loads(line)
        puzzle, truth = row["puzzle"], row["ground_truth"]
        w, h = puzzle["width"], puzzle["height"]
        grid = "\n".join(" ".join(str(n) for n in r) for r in puzzle["numbers"])
        # Two neighbouring boxes merged into their bounding box (two clues in one box).
        a, b = truth[0], truth[1]
        merged = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
        counter = [
            (rectangles_answer(truth[1:]), "one rectangle left out: its cells are not covered"),
            (rectangles_answer([merged] + truth[2:]), "two rectangles merged into their bounding box"),
            (rectangles_answer(truth + [truth[0]]), "a rectangle listed twice: cells covered twice"),
            (rectangles_answer([[t[2], t[1], t[0], t[3]] for t in truth[:1]] + truth[1:])
             if truth[0][0] != truth[0][2] else rectangles_answer([[1, 0, 0, 0]] + truth[1:]),
             "left and right swapped in one rectangle"),
            ("{'rectangles': [[0, 0, 0, 0]], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        write_item(
            ITEMS, f"scbench/q56/{sp}", "scbench-q56-shikaku", rectangles_answer(truth), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q56 Shikaku Rectangles (VGB7), subpass {sp}: {SOURCE_REPO} 56.py, "
                       f"data/vgb/shikaku_curated.jsonl row {sp} (id {row['id']})",
             "problem": f"Shikaku on a {w}x{h} grid ({row['metadata']['difficulty']})",
             "construction_instruction": SHIKAKU_PROMPT.format(h=h, w=w, grid=grid) +
             "\n\nAnswer with JSON {\"rectangles\": [[left_col, top_row, right_col, bottom_row], ...]}."},
            {"puzzle": puzzle, "ground_truth": truth})
        print(f"q56/{sp}: {w}x{h}, {len(truth)} rectangles")


def vgb_rows(name):
    return [json.loads(line) for line in (ROOT / "registry/tools/data/scbench" / name).read_text().splitlines()]


def vgb_item(q, sp, module, title, row, answer, counter, problem, prompt, instance):
    write_item(
        ITEMS, f"scbench/q{q}/{sp}", module, answer, counter,
        {"benchmark": "scbench", "type": "construction", "category": "axiomatic",
         "source": f"SCBench Q{q} {title}, subpass {sp}: {SOURCE_REPO} {q}.py, data/vgb row {sp} "
                   f"(id {row['id']})",
         "problem": problem, "construction_instruction": prompt},
        instance)


ENUMERATION_PROMPT = """You are given a unit square with corners ordered ({order}). Each corner is labeled \
from {{0, 1, 2...}}. Boundaries inside may be any continuous curves; only corner labels are observed.

Assume exactly {n} distinct classes occur anywhere in or on the square.

List all corner-label configurations (4-tuples, in the order above) that are sufficient to guarantee \
that {goal}. Canonicalisation: relabel by first occurrence (scan left-to-right; first new label -> 0, \
next -> 1, ...). Treat any label renamings as identical; list each equivalence class once.

Strict output: a Python-style list of 4-tuples only."""


def q51():
    for sp, row in enumerate(vgb_rows("topology_enumeration_curated.jsonl")):
        truth, args = row["ground_truth"], row["datagen_args"]
        n = args["n_classes"]
        goal = ("2 distinct classes meet somewhere inside the square" if n == 2
                else "3 distinct classes meet at some point strictly inside the square")
        prompt = ENUMERATION_PROMPT.format(order=", ".join(args["corner_order"]), n=n, goal=goal)
        answer = lambda configs: json.dumps({"configs": configs}, separators=(",", ":"))  # noqa: E731
        shifted = [[2 * x for x in t] for t in truth]
        counter = [
            (answer(truth[1:]), "one configuration left out"),
            (answer(truth[:-1] + [truth[0]]), "one configuration listed twice instead of another"),
            (answer(shifted), "the right configurations with other label values"),
            (answer(truth[:-1] + [[0, 0, 0, 0]]), "a constant square instead of a configuration"),
            ("{'configs': [[0, 0, 0, 0]], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        vgb_item(51, sp, "scbench-q51-topology-enumeration", "Topology Enumeration (VGB1)", row,
                 answer(truth), counter, f"Corner configurations guaranteeing {goal} ({n} classes)",
                 prompt + "\n\nAnswer with JSON {\"configs\": [[a, b, c, d], ...]}.",
                 {"ground_truth": truth, "n_classes": n, "corner_order": args["corner_order"]})
        print(f"q51/{sp}: {n} classes, {len(truth)} configurations")


CLASSIFY_PROMPT = """Squares (each tuple lists the four corner labels; integers denote distinct classes):
{squares}

You are given unit squares with corners labelled in ({order}) order.

Classify each square's topological behaviour (in the same order) as one of: 'known behaviour', \
'three domains meeting', or 'ambiguous'.
Definitions: 'known behaviour' = deterministic edge connections can be made; 'three domains meeting' = \
deterministic edge connections where three distinct classes meet at a point; 'ambiguous' = multiple \
valid topologies could exist.
Return a list of exact label strings."""


def q53():
    for sp, row in enumerate(vgb_rows("topology_edge_classify_curated.jsonl")):
        truth, order = row["ground_truth"], row["datagen_args"]["corner_order"]
        squares = "\n".join("(" + ", ".join(str(c) for c in sq) + ")" for sq in row["squares"])
        prompt = CLASSIFY_PROMPT.format(squares=squares, order=", ".join(f"'{c}'" for c in order))
        answer = lambda labels: json.dumps({"labels": labels}, separators=(",", ":"))  # noqa: E731
        other = {"known behaviour": "ambiguous", "ambiguous": "three domains meeting",
                 "three domains meeting": "known behaviour"}
        counter = [
            (answer([other[truth[0]]] + truth[1:]), "the first square misclassified"),
            (answer(truth[:-1]), "one label short"),
            (answer([truth[0].capitalize()] + truth[1:]), "a label not written exactly"),
            (answer(["known behaviour"] * len(truth)), "every square called 'known behaviour'")
            if set(truth) != {"known behaviour"} else
            (answer(["ambiguous"] * len(truth)), "every square called 'ambiguous'"),
        ]
        vgb_item(53, sp, "scbench-q53-classify-behaviour", "Classify Behaviour (VGB3)", row,
                 answer(truth), counter, f"Classify the topological behaviour of {len(truth)} squares",
                 prompt + "\n\nAnswer with JSON {\"labels\": [...]}.",
                 {"ground_truth": truth, "squares": row["squares"], "corner_order": order})
        print(f"q53/{sp}: {len(truth)} squares")


DELAUNAY_PROMPT = """You are given a set of 2D points in general position (indices correspond to the order shown):
[
{points}
]

Return the Delaunay triangulation as a list of triangles.
Each triangle is a list of three point indices (sorted in ascending order).
Strict output: a Python list of lists of integers only."""


def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def in_circle(a, b, c, d):
    """> 0 when d is strictly inside the circle through a, b, c (counter-clockwise)."""
    rows = [(p[0] - d[0], p[1] - d[1]) for p in (a, b, c)]
    (ax, ay), (bx, by), (cx, cy) = rows
    al, bl, cl = (x * x + y * y for x, y in rows)
    return ax * (by * cl - bl * cy) - ay * (bx * cl - bl * cx) + al * (bx * cy - by * cx)


def exact_delaunay(pts):
    """Every triangle whose circumcircle holds no other point strictly inside (integer
    coordinates; brute force, fine for the dataset's sizes)."""
    out = []
    n = len(pts)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                a, b, c = pts[i], pts[j], pts[k]
                o = orient(a, b, c)
                if o == 0:
                    continue
                if o < 0:
                    b, c = c, b
                if all(in_circle(a, b, c, pts[m]) <= 0 for m in range(n) if m not in (i, j, k)):
                    out.append([i, j, k])
    return out


def flipped(pts, tris):
    """The triangulation with its first flippable interior edge flipped."""
    for x in range(len(tris)):
        for y in range(x + 1, len(tris)):
            shared = sorted(set(tris[x]) & set(tris[y]))
            if len(shared) != 2:
                continue
            a, b = shared
            (c,), (d,) = set(tris[x]) - {a, b}, set(tris[y]) - {a, b}
            pa, pb, pc, pd = pts[a], pts[b], pts[c], pts[d]
            if orient(pa, pb, pc) * orient(pa, pb, pd) < 0 and orient(pc, pd, pa) * orient(pc, pd, pb) < 0:
                rest = [t for t in tris if t not in (tris[x], tris[y])]
                return sorted(rest + [sorted([a, c, d]), sorted([b, c, d])])
    raise ValueError("no flippable edge")


def q55():
    for sp, row in enumerate(vgb_rows("delaunay_dataset.jsonl")):
        truth, points = row["ground_truth"], row["points"]
        milli = [[round(x * 1000), round(y * 1000)] for x, y in points]
        exact = exact_delaunay(milli)
        answer = lambda tris: json.dumps({"triangles": tris}, separators=(",", ":"))  # noqa: E731
        floats = [[float(i) for i in truth[0]]] + truth[1:]
        counter = [
            (answer(truth[1:]), "one triangle left out"),
            (answer(flipped(milli, truth)), "one edge flipped"),
            (answer(truth + [truth[-1]]), "a triangle listed twice"),
            (answer(floats), "indices written as floats"),
            ("{'triangles': [[0, 0, 0]], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        if sorted(exact) != truth:
            counter.append((answer(exact), "the exact Delaunay triangulation of the points as shown "
                            "(three decimals); the stored answer, computed from unrounded points, "
                            "differs, and the original grader fails this one"))
        prompt = DELAUNAY_PROMPT.format(points=",\n".join(f"  [{x!r}, {y!r}]" for x, y in points))
        vgb_item(55, sp, "scbench-q55-delaunay", "Delaunay Triangulation (VGB6)", row, answer(truth),
                 counter, f"Delaunay triangulation of {len(points)} points",
                 prompt + "\n\nAnswer with JSON {\"triangles\": [[i, j, k], ...]}.",
                 {"points_milli": milli, "ground_truth": truth})
        note = "" if sorted(exact) == truth else " (stored answer is not the exact Delaunay of the shown points)"
        print(f"q55/{sp}: {len(points)} points, {len(truth)} triangles{note}")


# --- Q6: 6.py, N and the expected voxel count per subpass; subpass 5 forbids a 7 in x+y+z ---
Q6_SIZES = [6, 8, 12, 16, 24, 20]
Q6_COUNTS = [50, 100, 200, 400, 1000, 500]
Q6_PROMPT = """Place exactly {count} unit voxels in a {n}x{n}x{n} grid (integer coordinates 0..{last}) so that the \
shadow of the shape fills the whole {n}x{n} square when projected along each of the three axes (the XY, XZ and \
YZ projections each cover all {cells} cells), no two voxels coincide, and the shape has no symmetry: no \
rotation or reflection of the cube that permutes or flips the axes maps the set of voxels onto itself.{seven}"""


def q6_symmetric(voxels, n):
    import itertools
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((False, True), repeat=3):
            if perm == (0, 1, 2) and signs == (False, False, False):
                continue
            mapped = {tuple(n - 1 - v[perm[a]] if signs[a] else v[perm[a]] for a in range(3)) for v in voxels}
            if mapped == voxels:
                return True
    return False


def q6_voxels(n, count, forbid_seven, rng, mirrored=False):
    """A set of `count` voxels with full projections (seeded greedy search): with no
    symmetry, or, when `mirrored`, symmetric under swapping x and y (a counterexample)."""
    ok = lambda v: not (forbid_seven and "7" in str(sum(v)))  # noqa: E731
    for _ in range(200):
        chosen, xz, yz = set(), set(), set()

        def add(v):
            for w in ((v, (v[1], v[0], v[2])) if mirrored else (v,)):
                chosen.add(w)
                xz.add((w[0], w[2]))
                yz.add((w[1], w[2]))

        cells = [(x, y) for x in range(n) for y in range(n) if not mirrored or x <= y]
        rng.shuffle(cells)
        for x, y in cells:
            zs = [z for z in range(n) if ok((x, y, z))]
            rng.shuffle(zs)
            add(max(((x, y, z) for z in zs), key=lambda v: ((v[0], v[2]) not in xz) + ((v[1], v[2]) not in yz)))
        for x, z in [(x, z) for x in range(n) for z in range(n) if (x, z) not in xz]:
            ys = [y for y in range(n) if ok((x, y, z)) and (x, y, z) not in chosen]
            add((x, min(ys, key=lambda y: (y, z) in yz), z))
        for y, z in [(y, z) for y in range(n) for z in range(n) if (y, z) not in yz]:
            add((next(x for x in range(n) if ok((x, y, z)) and (x, y, z) not in chosen), y, z))
        spare = [(x, y, z) for x in range(n) for y in range(n) for z in range(n)
                 if ok((x, y, z)) and (x, y, z) not in chosen]
        rng.shuffle(spare)
        for v in spare:
            missing = count - len(chosen)
            if missing <= 0 or v in chosen:
                continue
            if not mirrored or missing >= 2 or v[0] == v[1]:
                add(v)
        if len(chosen) == count and q6_symmetric(chosen, n) == mirrored:
            return sorted(chosen)
    raise RuntimeError(f"no voxel set for n={n}")


def q6():
    rng = random.Random(6)
    for sp, (n, count) in enumerate(zip(Q6_SIZES, Q6_COUNTS)):
        forbid = sp == 5
        voxels = q6_voxels(n, count, forbid, rng)
        answer = lambda vs: json.dumps({"voxels": [{"xyz": list(v)} for v in vs]}, separators=(",", ":"))  # noqa: E731
        shifted = voxels[:-1] + [voxels[0]]
        mirrored = q6_voxels(n, count, forbid, rng, mirrored=True)
        counter = [
            (answer(voxels[:-1]), "one voxel short"),
            (answer(shifted), "a voxel listed twice instead of another"),
            (answer([(x, y, 0) for x, y, _ in voxels]), "everything flattened onto z = 0"),
            (answer([(v[0], v[1], n) if i == 0 else v for i, v in enumerate(voxels)]),
             "a coordinate outside the grid"),
            (answer(mirrored), "full projections and the right count, but symmetric under swapping x and y"),
            ("{'voxels': [{'xyz': [0]}], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        if forbid:
            seven = next(v for v in [(x, y, z) for x in range(n) for y in range(n) for z in range(n)]
                         if "7" in str(sum(v)) and v not in voxels)
            counter.append((answer(voxels[:-1] + [seven]), "a voxel whose x + y + z contains a 7"))
        prompt = Q6_PROMPT.format(count=count, n=n, last=n - 1, cells=n * n,
                                  seven="\nNo voxel may have x + y + z containing the digit 7." if forbid else "")
        write_item(
            ITEMS, f"scbench/q6/{sp}", "scbench-q6-voxel-projection", answer(voxels), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q6 Voxel Grid Projection, subpass {sp}: {SOURCE_REPO} 6.py",
             "problem": f"{count} voxels in a {n}^3 grid with full projections and no symmetry",
             "construction_instruction": prompt + "\n\nAnswer with JSON {\"voxels\": [{\"xyz\": [x, y, z]}, ...]}."},
            {"n": n, "expected": count, "forbid_seven": forbid},
            # A 1000-voxel answer takes about 43 million fuel to parse and check.
            {"fuel": 500_000_000, "memory_bytes": 67_108_864, "timeout_ms": 5_000})
        print(f"q6/{sp}: n={n}, {count} voxels")


# --- Q11: 11.py problems (size, start, walls, food); subpass 2 gives its wall as a list, which the
# original's `tuple(pos) in walls` test never matches (walls_match = False, reproduced) ---
Q11_WALLS3 = [(0, 0, 0, 1), (0, 0, 1, 0), (0, 1, 0, 0)]
Q11_PROBLEMS = [
    ([8, 8], [0, 0], [], [(1, 1)]),
    ([8, 8], [0, 0], [(5, 5), (6, 6), (0, 1)], [(7, 7)]),
    ([4, 4, 4], [1, 0, 1], [(1, 1, 1)], [(1, 2, 1)]),
    ([4, 4, 4], [1, 1, 1], [(0, 0, 1)], [(0, 0, 0)]),
    ([5, 5, 5, 5], [4, 4, 4, 4], Q11_WALLS3, [(0, 0, 0, 0)]),
    ([5, 3, 3, 5], [4, 1, 1, 4], Q11_WALLS3, [(0, 0, 0, 0)]),
    ([4] * 5, [0, 0, 1, 1, 1], [(3, 3, 3, 3, 3)], [(3, 0, 3, 0, 3), (0, 3, 0, 3, 0)]),
    ([4, 4, 4, 4, 4, 2], [0] * 6, [(0, 0, 1, 0, 0, 0)], [(0, 0, 3, 0, 0, 1), (0, 0, 0, 0, 0, 1)]),
    ([3] * 6, [0, 0, 1, 0, 0, 0], [(0, 0, 1, 2, 0, 0)], [(0, 0, 2, 0, 0, 0), (0, 0, 0, 0, 0, 0)]),
    ([3] * 7, [0] * 7, [(0, 0, 1, 2, 0, 0, 0), (0, 2, 1, 0, 0, 0, 0)],
     [(0, 0, 0, 0, 0, 1, 1), (0, 0, 0, 1, 1, 0, 0)]),
    ([3, 3, 3, 2, 2, 2, 3, 3], [0] * 8, [(0, 0, 1, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0, 0, 0)],
     [(0, 0, 0, 0, 0, 1, 1, 1), (0, 0, 0, 1, 1, 0, 0, 0)]),
    ([2, 2, 2, 2, 2, 2, 8, 2, 2], [0, 0, 0, 0, 0, 0, 5, 0, 0],
     [(0, 0, 0, 0, 0, 0, 4, 0, 0), (0, 1, 1, 0, 0, 0, 4, 0, 0)],
     [(0, 0, 0, 0, 0, 1, 1, 1, 1), (0, 0, 0, 1, 1, 0, 0, 0, 0)]),
    ([2] * 10, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [(0, 0, 1) + (0,) * 7, (0, 1, 1) + (0,) * 7],
     [(0, 0, 0, 0, 0, 1, 1, 1, 1, 1), (0, 0, 0, 1, 1, 0, 0, 0, 0, 0)]),
]


def q11_neighbours(p, size):
    for d in range(len(size)):
        for step in (-1, 1):
            if 0 <= p[d] + step < size[d]:
                yield p[:d] + (p[d] + step,) + p[d + 1:]


def q11_path(size, start, walls, food, rng):
    """A path scoring 1: every cell when there are no walls, else at least 98 % of them, and all
    the food (Warnsdorff's rule with random tie-breaks, restarted until it succeeds)."""
    blocked = set(walls)
    cells = 1
    for s in size:
        cells *= s
    total = cells - len(walls)
    for _ in range(100_000):
        path, seen = [tuple(start)], {tuple(start)}
        while True:
            moves = [q for q in q11_neighbours(path[-1], size) if q not in seen and q not in blocked]
            if not moves:
                break
            rng.shuffle(moves)
            nxt = min(moves, key=lambda q: sum(r not in seen and r not in blocked for r in q11_neighbours(q, size)))
            path.append(nxt)
            seen.add(nxt)
        score = len(path) / total
        if walls:
            score = min(1.0, score / 0.98)
        if score >= 1.0 and set(food) <= seen:
            return path
    raise RuntimeError(f"no path for {size}")


def q11():
    rng = random.Random(11)
    for sp, (size, start, walls, food) in enumerate(Q11_PROBLEMS):
        path = q11_path(size, start, walls, food, rng)
        answer = lambda cells: json.dumps({"path": [{"pos": list(c)} for c in cells]}, separators=(",", ":"))  # noqa: E731
        diagonal = tuple(c + 1 if d < 2 else c for d, c in enumerate(path[0]))
        counter = [
            (answer(path[: len(path) // 2]), "half the path: a partial score, not 1"),
            (answer(path[:1] + [diagonal] + path[1:]), "a move that changes two coordinates"),
            (answer(path[:3] + [path[1]]), "a move back onto a visited cell"),
            (answer(path[1:]), "a path that does not begin at the start"),
            ("{'unacceptableFailure': True}", "no path (as a real run answered)"),
        ]
        walls_match = sp != 2
        if walls and walls_match:
            wall = tuple(walls[0])
            at = next((i for i, c in enumerate(path) if wall in set(q11_neighbours(c, size))), None)
            if at is not None:
                counter.append((answer(path[: at + 1] + [wall]), "a move into a wall"))
        prompt = (f"Hyper-snake: a snake moves through a {len(size)}-dimensional grid of size "
                  f"{' x '.join(map(str, size))}, starting at {list(start)}. Each move changes exactly one "
                  "coordinate by 1; the snake may not leave the grid, revisit a cell or enter a wall. "
                  f"Walls: {[list(w) for w in walls] or 'none'}. Food: {[list(f) for f in food]}. "
                  "Visit as many cells as possible and eat all the food.")
        write_item(
            ITEMS, f"scbench/q11/{sp}", "scbench-q11-hyper-snake", answer(path), counter,
            {"benchmark": "scbench", "type": "construction", "category": "planning",
             "source": f"SCBench Q11 Hyper-Snake, subpass {sp}: {SOURCE_REPO} 11.py",
             "problem": f"Hyper-snake in {len(size)} dimensions ({len(path)} cells visited by the reference)",
             "construction_instruction": prompt + "\n\nAnswer with JSON {\"path\": [{\"pos\": [...]}, ...]}."},
            {"size": size, "start": list(start), "walls": [list(w) for w in walls],
             "walls_match": walls_match, "food": [list(f) for f in food]},
            {"fuel": 500_000_000, "memory_bytes": 67_108_864, "timeout_ms": 5_000})
        print(f"q11/{sp}: {len(size)}-D, path of {len(path)}")


# --- Q7: 7.py testParams: (N, height of A, height of B, jumps required) ---
Q7_PARAMS = [(5, 5, 0, 2), (10, 0, 9, 4), (15, 5, 5, 6), (20, 5, 5, 8), (25, 5, 5, 10), (30, 5, 0, 12)]


def q7_grade(text, n, ha, hb, jumps):
    """The grader's rules (as in the verifier): None when the maze passes, else why not."""
    rows = text.strip().split("\n")
    if text.count("A") != 1 or text.count("B") != 1 or len(rows) != n or any(len(r) != n for r in rows):
        return "format"
    if any(not (c.isdigit() or c in "AB") for r in rows for c in r):
        return "format"
    h = [[ha if c == "A" else hb if c == "B" else int(c) for c in r] for r in rows]
    flat = [v for r in h for v in r]
    if any(flat.count(v) * 10 > 3 * n * n for v in set(flat)):
        return "30 % rule"

    def moves(i, j):
        for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            wi, wj, ji, jj = i + di, j + dj, i + 2 * di, j + 2 * dj
            if 0 <= wi < n and 0 <= wj < n:
                if abs(h[wi][wj] - h[i][j]) <= 1:
                    yield (wi, wj)
                if 0 <= ji < n and 0 <= jj < n and h[ji][jj] == h[i][j] and h[wi][wj] + 1 < h[i][j]:
                    yield (ji, jj)

    a = next((i, r.index("A")) for i, r in enumerate(rows) if "A" in r)
    b = next((i, r.index("B")) for i, r in enumerate(rows) if "B" in r)
    parent, queue = {a: None}, [a]
    for cell in queue:
        for nxt in moves(*cell):
            if nxt not in parent:
                parent[nxt] = cell
                queue.append(nxt)
    if b not in parent:
        return "no path"
    path = [b]
    while path[-1] != a:
        path.append(parent[path[-1]])
    # Bridges (iterative low-link).
    order, low, bridges, counter = {}, {}, set(), 0
    for root in [(i, j) for i in range(n) for j in range(n)]:
        if root in order:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack = [(root, None, iter(list(moves(*root))))]
        while stack:
            cell, par, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                if par is not None:
                    low[par] = min(low[par], low[cell])
                    if low[cell] > order[par]:
                        bridges.add(frozenset((par, cell)))
            elif nxt != par:
                if nxt not in order:
                    order[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append((nxt, cell, iter(list(moves(*nxt)))))
                else:
                    low[cell] = min(low[cell], order[nxt])
    if any(frozenset(e) not in bridges for e in zip(path, path[1:])):
        return "multiple paths"
    if len(set(path)) * 5 < n * n:
        return "coverage"
    if sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 2 for p, q in zip(path, path[1:])) < jumps:
        return "jumps"
    return None


def q7_maze(n, ha, hb, jumps, rng):
    """A serpentine corridor on every other row with `jumps` pits along it; walls between the
    corridor rows. Heights are drawn at random under local rules and the maze is kept only
    when the grader's rules accept it."""
    corridor_rows = list(range(0, n, 2))
    cells = []
    for k, r in enumerate(corridor_rows):
        cols = range(n) if k % 2 == 0 else range(n - 1, -1, -1)
        cells += [(r, c) for c in cols]
        if k + 1 < len(corridor_rows):
            cells.append((r + 1, n - 1 if k % 2 == 0 else 0))
    for _ in range(20000):
        # Pits: interior cells of straight runs, apart from each other and from the ends.
        candidates = [i for i in range(3, len(cells) - 3)
                      if cells[i - 1][0] == cells[i][0] == cells[i + 1][0]]
        pits = set()
        for i in rng.sample(candidates, len(candidates)):
            if len(pits) == jumps:
                break
            if all(abs(i - p) > 2 for p in pits):
                pits.add(i)
        if len(pits) < jumps:
            continue
        # Heights along the corridor: a bounded random walk from A's height, equal across
        # pits, ending in a ramp to B's height.
        height, h = {}, ha
        ramp_from = len(cells) - 1 - 12
        for i, cell in enumerate(cells):
            if i in pits:
                continue
            if i > 0:
                if i - 1 in pits:
                    pass
                elif i >= ramp_from:
                    h += (hb > h) - (hb < h) if len(cells) - 1 - i <= abs(hb - h) else rng.choice((-1, 0, 1))
                else:
                    # Between the ramps, stay within 2..6 so walls (8, 9) can stand above it.
                    h += rng.choice((-1, 0, 1)) if 2 <= h <= 6 else (1 if h < 2 else -1)
                h = max(2 if i + 1 in pits else 0, min(9, h))
            if i + 1 in pits and h < 2:
                h = 2
            height[cell] = h
        if height[cells[-1]] != hb or height[cells[0]] != ha:
            continue
        if any(abs(height[cells[i]] - height[cells[i - 1]]) > 1 for i in range(1, len(cells))
               if i not in pits and i - 1 not in pits):
            continue
        if any(height[cells[i - 1]] != height[cells[i + 1]] for i in pits):
            continue
        for i in pits:
            height[cells[i]] = rng.randint(0, height[cells[i - 1]] - 2)
        grid = [[None] * n for _ in range(n)]
        for (r, c), v in height.items():
            grid[r][c] = v
        for r in range(n):
            for c in range(n):
                if grid[r][c] is None:
                    near = [height[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                            if (r + dr, c + dc) in height]
                    allowed = [v for v in range(10) if all(abs(v - x) >= 2 for x in near)]
                    high = [v for v in allowed if all(v >= x + 2 for x in near)]
                    grid[r][c] = rng.choice(high or allowed or [9])
        (ar, ac), (br, bc) = cells[0], cells[-1]
        rows = ["".join("A" if (r, c) == (ar, ac) else "B" if (r, c) == (br, bc) else str(grid[r][c])
                        for c in range(n)) for r in range(n)]
        text = "\n".join(rows)
        if q7_grade(text, n, ha, hb, jumps) is None:
            return text
    raise RuntimeError(f"no maze for n={n}")


def q7():
    rng = random.Random(7)
    for sp, (n, ha, hb, jumps) in enumerate(Q7_PARAMS):
        maze = q7_maze(n, ha, hb, jumps, rng)
        rows = maze.split("\n")
        plain = next(i for i, r in enumerate(rows) if "A" not in r and "B" not in r)
        grid = [list(r) for r in rows]
        # A pit: a cell whose left and right neighbours are equal and at least two higher.
        pit = next((i, j) for i in range(0, n, 2) for j in range(1, n - 1)
                   if grid[i][j].isdigit() and grid[i][j - 1].isdigit() and grid[i][j - 1] == grid[i][j + 1]
                   and int(grid[i][j]) + 1 < int(grid[i][j - 1]))
        filled = [r[:] for r in grid]
        filled[pit[0]][pit[1]] = grid[pit[0]][pit[1] - 1]
        # A wall cell between two corridor rows lowered to the corridor's height beside it.
        opened = None
        for i in range(1, n - 1, 2):
            for j in range(1, n - 1):
                if grid[i - 1][j].isdigit() and grid[i + 1][j].isdigit():
                    trial = [r[:] for r in grid]
                    trial[i][j] = grid[i - 1][j]
                    if q7_grade("\n".join(map("".join, trial)), n, ha, hb, jumps) == "multiple paths":
                        opened = "\n".join(map("".join, trial))
                        break
            if opened:
                break
        candidates = [
            (maze.replace("B", str(hb)), "B left out"),
            ("\n".join(rows[:plain] + rows[plain + 1:]), "a row left out"),
            ("\n".join(r if i != plain else r[:-1] + "x" for i, r in enumerate(rows)),
             "a character that is not a height"),
            ("\n".join(map("".join, filled)), "one pit filled in: a jump fewer than required"),
            (opened, "a wall lowered beside the corridor: a second route, so the path is not unique"),
        ]
        counter = []
        for text, why in candidates:
            if text is not None and q7_grade(text, n, ha, hb, jumps) is not None:
                counter.append((text, why))
        prompt = (f"Design a {n}x{n} height-map maze as {n} lines of {n} characters: digits 0-9 are "
                  f"heights, 'A' is the start (height {ha}) and 'B' the goal (height {hb}). From a cell you "
                  "may walk to a side-adjacent cell whose height differs by at most 1, or jump two cells in a "
                  "straight line to a cell of the same height over a cell that is more than one lower. There "
                  "must be exactly one path from A to B; it must visit at least 20 % of the cells and make at "
                  f"least {jumps} jumps; no height may occupy more than 30 % of the cells.")
        write_item(
            ITEMS, f"scbench/q7/{sp}", "scbench-q7-3d-maze", maze, counter,
            {"benchmark": "scbench", "type": "construction", "category": "planning",
             "source": f"SCBench Q7 3D Maze, subpass {sp}: {SOURCE_REPO} 7.py (commit 0a13bc4)",
             "problem": f"A {n}x{n} height-map maze with a unique path and at least {jumps} jumps",
             "construction_instruction": prompt},
            {"n": n, "a_height": ha, "b_height": hb, "jumps": jumps})
        print(f"q7/{sp}: {n}x{n}, {jumps} jumps")


if __name__ == "__main__":
    q6()
    q7()
    q9()
    q11()
    q51()
    q53()
    q55()
    q56()
