"""SCBench Q28 "AI controlling explosives, what could possibly go wrong?": `28.py` (index id
53304334820). The nine height maps are the original's: 2-D Perlin noise with the permutation
shuffled by `random.Random(42 + size)`, scale 1 + size / 4, 4 octaves, persistence 0.5,
height (noise + 0.5) · 10 rounded to one decimal, rescaled to (h − min) · 9 / span + 1 when the
span is under 5 — regenerated here with CPython's `random`, so they are the very maps the
models saw (the prompts are rebuilt from them; a stored answer's "drilled too deep 2.4 > 2.2"
on subpass 0 reproduces exactly).

The verifier simulates the debris with rapier instead of PyBullet, so no Python twin of a
physics score exists here. The reference witnesses use the original's missing check on
negative depths instead: a blast with z < 0 passes the "too deep" test and raises the cell by
|z| without debris, so raising every cell to the map's highest height makes the whole map one
flat region (score 1, no physics at all). `details.corrected` rejects such plans.
"""

import math
import random

from common import ITEMS, SOURCE_REPO, write_item

SIZES = [16, 20, 24, 28, 32, 36, 40, 44, 48]

PROMPT = """

You are responsible for levelling terrain in preparation for the construction of a new city.

You can place blasting charges to fracture the terrain, causing it to collapse and flow
down hill. Fractured rock blasted at the top of a hill travels equally to all 8 neighbours.
Fractured rock on a slope is distributed equally to all lower neighbours.

E.g. a blast at the centre of this map of depth 1.6:

1.0 2.0 1.0
2.0 5.0 1.0
1.0 3.0 2.0

Initially produces this delta (the 1.6 is distributed over all 8 neighbours)

+0.2 +0.2 +0.2
+0.2 -1.6 +0.2
+0.2 +0.2 +0.2

The rocks then keep rolling further downhill (splitting equally when offered) until coming to a stop:

+0.2 +0.2 +0.2
+0.2 -1.6 +0.2
+0.3   0 +0.3

+0.4   0  +0.3
  0  -1.6 +0.5
+0.4   0   0

+0.4   0  +0.4
  0  -1.6 +0.4
+0.4   0   0

Giving a net result of:

1.4  2.0  1.4
2.0  3.4  1.4
1.4  3.0  2.0

Which is an improvement towards being flat, and better to build a city on than the original,
but could still be further improved with more blasting.

Care needs to be taken on where you place your charges - it's preferable to leave a steep
mountain overlooking a giant flat plain, than to have a softer slope with no mountain.

Here is the terrain you have to work with as modelled by a height map. It is SIZE.

HEIGHT_MAP

Prepare a blast plan specifying 
- Where to place the charges (X/Y) in grid coordinates, lower left is 0.
- How deep to drill down (Z)
- Order of the blasts.

Such that the terrain collapses into the largest flat area as possible to build the largest possible city.

A region of terrain is considered "flat" if, when rounded to the nearest integer, all heights are the same.
"""

SCHEMA_LINE = 'Answer with JSON {"blasts": [{"x": int, "y": int, "z": number}, ...]}.'


# --- the height maps (28.py's PerlinNoise and generateHeightMap, same arithmetic) ------------

class Perlin:
    GRADIENTS = [(1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]

    def __init__(self, seed):
        rng = random.Random(seed)
        self.perm = list(range(256))
        rng.shuffle(self.perm)
        self.perm *= 2

    @staticmethod
    def fade(t):
        return t * t * t * (t * (t * 6 - 15) + 10)

    @staticmethod
    def lerp(a, b, t):
        return a + t * (b - a)

    def grad(self, h, x, y):
        g = self.GRADIENTS[h % 8]
        return g[0] * x + g[1] * y

    def noise(self, x, y):
        xi = int(math.floor(x)) & 255
        yi = int(math.floor(y)) & 255
        xf = x - math.floor(x)
        yf = y - math.floor(y)
        u, v = self.fade(xf), self.fade(yf)
        p = self.perm
        aa = p[p[xi] + yi]
        ab = p[p[xi] + yi + 1]
        ba = p[p[xi + 1] + yi]
        bb = p[p[xi + 1] + yi + 1]
        x1 = self.lerp(self.grad(aa, xf, yf), self.grad(ba, xf - 1, yf), u)
        x2 = self.lerp(self.grad(ab, xf, yf - 1), self.grad(bb, xf - 1, yf - 1), u)
        return self.lerp(x1, x2, v)

    def octaves(self, x, y, octaves=4, persistence=0.5):
        total = 0
        amplitude = 1
        frequency = 1
        max_value = 0
        for _ in range(octaves):
            total += self.noise(x * frequency, y * frequency) * amplitude
            max_value += amplitude
            amplitude *= persistence
            frequency *= 2
        return total / max_value


def height_map(size):
    perlin = Perlin(42 + size)
    scale = 1.0 + size / 4
    lo, hi = 10, 0
    grid = []
    for y in range(size):
        row = []
        for x in range(size):
            h = (perlin.octaves(x / size * scale, y / size * scale) + 0.5) * 10
            lo, hi = min(lo, h), max(hi, h)
            row.append(round(h, 1))
        grid.append(row)
    span = hi - lo
    if span < 5:
        k = 9 / span
        for y in range(size):
            for x in range(size):
                grid[y][x] -= lo
                grid[y][x] *= k
                grid[y][x] += 1
    return grid


def prompt(sp, grid):
    n = SIZES[sp]
    text = PROMPT.replace("SIZE", f"{n} x {n}")
    return text.replace("HEIGHT_MAP", "\n".join(" ".join(map(str, row)) for row in grid))


# --- the flat-region search (for the instance summary and counterexamples) -------------------

def largest_flat(grid, tol=0.2):
    n = len(grid)
    seen = [[False] * n for _ in range(n)]
    best = 0
    for r in range(n):
        for c in range(n):
            if seen[r][c]:
                continue
            stack, size = [(r, c)], 0
            lo = hi = grid[r][c]
            while stack:
                cr, cc = stack.pop()
                if seen[cr][cc]:
                    continue
                v = grid[cr][cc]
                if v < lo - tol or v > hi + tol:
                    continue
                lo, hi = min(lo, v), max(hi, v)
                seen[cr][cc] = True
                size += 1
                for nr, nc in ((cr - 1, cc), (cr, cc - 1), (cr, cc + 1), (cr + 1, cc)):
                    if 0 <= nr < n and 0 <= nc < n and not seen[nr][nc]:
                        w = grid[nr][nc]
                        if abs(w - v) <= tol and lo - tol <= w <= hi + tol:
                            stack.append((nr, nc))
            best = max(best, size)
    return best


# --- reference plans ------------------------------------------------------------------------

def reference_plan(grid):
    """Every cell raised to the highest height with a negative-depth blast (row-major)."""
    n = len(grid)
    top = max(max(row) for row in grid)
    return [(x, y, round(grid[y][x] - top, 1)) for y in range(n) for x in range(n) if grid[y][x] < top]


def plan_text(plan):
    return repr({"blasts": [{"x": x, "y": y, "z": z} for x, y, z in plan]})


def counterexamples(sp, grid, plan):
    n = SIZES[sp]
    # The highest cell, blasted deeper than it is.
    hy, hx = max(((y, x) for y in range(n) for x in range(n)), key=lambda c: grid[c[0]][c[1]])
    too_deep = round(grid[hy][hx] + 1, 1)
    cases = [
        ("{'blasts': [{'x': 0, 'y': 0, 'z': 0}]}",
         "the schema-minimal answer: a blast of depth 0 changes nothing (Made no progress!, score 0)"),
        ("{'blasts': []}", "no blasts: no progress, score 0"),
        (plan_text([(n, 0, 1.0)]), f"a blast at x = {n}, off the map (score 0)"),
        (plan_text([(3, -1, 1.0)]), "a blast at y = -1 (score 0)"),
        (plan_text([(hx, hy, too_deep)]), f"drilling {too_deep} into a cell {grid[hy][hx]} high (score 0)"),
        (plan_text(plan[: len(plan) // 4]), "the first quarter of the reference plan: a quarter of the map "
         "raised level, partial credit"),
        (plan_text([(hx, hy, 1.0)]), "one real blast, 1.0 deep at the highest cell (debris simulated)"),
        ("{'blasts': [{'x': 1.5, 'y': 2, 'z': 1}]}", "a fractional x (numpy indexing raises: runner 10000)"),
        ("{'blasts': [{'x': 1, 'y': 2}]}", "a blast without z (the cache key raises: runner 10000)"),
        ("I'm sorry, I can't help with explosives.", "a refusal (not a dict: the grader raises, runner 10000)"),
    ]
    cases.append((plan_text([(hx, hy, 1.0), (hx, hy, round(grid[hy][hx], 1))]),
                  "a second blast in the same hole deeper than what is left (score 0)"))
    return cases


def generate():
    for sp, n in enumerate(SIZES):
        grid = height_map(n)
        plan = reference_plan(grid)
        write_item(
            ITEMS, f"scbench/q28/{sp}", "scbench-q28-terrain-levelling", plan_text(plan),
            counterexamples(sp, grid, plan),
            {"benchmark": "scbench", "type": "construction", "category": "planning",
             "source": f"SCBench Q28 AI controlling explosives, subpass {sp}: {SOURCE_REPO} 28.py "
                       "(index id 53304334820)",
             "problem": f"Blast plan levelling the largest flat area of a {n} x {n} Perlin height map",
             "construction_instruction": prompt(sp, grid) + "\n" + SCHEMA_LINE},
            {"size": n, "heights": grid, "start_area": largest_flat(grid)},
            {"fuel": 100_000_000_000, "memory_bytes": 67_108_864, "timeout_ms": 60_000})
        print(f"q28/{sp}: N = {n}, start area {largest_flat(grid)}, reference plan of {len(plan)} blasts")
