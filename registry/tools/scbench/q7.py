"""SCBench Q7 3D Maze: `7.py` (sizes, A/B heights and required jumps copied below); reference mazes from the
seeded serpentine construction below, each checked with a port of the grader before it is written.
"""

import random

from common import ITEMS, SOURCE_REPO, write_item


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


def generate():
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
