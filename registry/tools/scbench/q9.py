"""SCBench Q9 Hamiltonian Loop: `9.py`, index id 53491383584 (10 subpasses, `testParams` copied verbatim,
grid strings parsed as `_parse_grid_to_blocked` does: top text line = highest y). Reference loops
from the small deterministic solver below.
"""

import json
import random
import sys

from common import ITEMS, SOURCE_REPO, write_item


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


def generate():
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
