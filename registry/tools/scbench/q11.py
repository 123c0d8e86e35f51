"""SCBench Q11 Hyper-Snake: `11.py` (problem table copied below, from the research digest of commit 1012895);
reference paths from a seeded Warnsdorff search.
"""

import json
import random

from common import ITEMS, SOURCE_REPO, write_item


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


def generate():
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
