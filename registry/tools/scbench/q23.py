"""SCBench Q23 Fluid simulation: `23.py` (commit 1c0b05e). World sizes, goals and the prompt
template are copied from that file; the reference earthworks are designed here, one per goal,
and checked with a Python port of the grader's simulation before they are written.

The port is exact by construction where the original depends on CPython: the water that settles
goes to the first air cell of a real Python `set` filled in the original's breadth-first order,
so this module must run on CPython 3.8+ (the tuple hash the paper's runs used). It saves work
in the ways the Rust verifier does (see its `rain.rs`): a level's regions are fixed once rock
has settled, so a drop on a region with no air below that touches the edge is lost without a
search; a search stops at the first cell with air below; and once a round of four centre drops
is all lost the remaining rounds are counted, not simulated.
"""

from collections import deque

from common import ITEMS, SOURCE_REPO, write_item

SIZES = [16, 24, 32, 40, 48, 56, 64, 48, 56, 48, 64]
H = 8
AIR, ROCK, WATER = 0, 1, 2

GOALS = [
    "there is a lake of at least 36 voxels in surface area.",
    "there are 3 unconnected bodies of water each at least 2x2",
    "there is a lake of at least 2 voxels at z > 5",
    "there is an underground lake of at least 10 voxels in volume, "
    "but no water voxels are visible from above.",
    "there are 3 lakes on 3 different z levels",
    "there is a lake at least 6 voxels deep",
    "there are 2 lakes, each over 200 voxels in volume",
    "there is a ring-shaped lake (water surrounds a dry center of at least 3x3)",
    "there is water at z=3 AND z=6, but NO water at z=4 or z=5",
    "there is EXACTLY 100 voxels of water total (not more, not less)",
    "there are 4 separate underground lakes, each at least 5 voxels, none visible from above",
]

PROMPT = (
    "\nYou are given a 3D voxel world, of dimensions PARAM_A * PARAM_A * 8 voxels,\n"
    "currently filled with rock uniformly flat and solid at the layers z = [0,1,2]\n\n"
    "Rainfall occurs at the top centre of the world, and follows the following rules:\n"
    "- If air is below water, the water falls (z = z - 1)\n"
    "- If water has ground or water below it, it \"flood fills\" out looking for any air voxels \n"
    "  at the z level below it, and moves to the nearest one.\n"
    "- If water touches the sides or bottom of the world, it falls off and is lost forever.\n"
    "- If water can't find a reachable air voxel to move to, it remains there as a pool of water.\n\n"
    "Since the world is currently flat, rainfall currently all runs off the edge of the map,\n"
    "meaning earthworks are required to achieve your goals. After your earthworks complete, \n"
    "there will be 1000s of voxels worth of rainfall (mostly centred at the centre of the world)\n"
    "before your world is graded.\n\n"
    "You can specify earthworks using a simple json format:\n"
    "{\n  \"earthworks\" : [\n    {\n      \"xyzMin\": [2, 2, 3],\n      \"xyzMax\": [6, 6, 3],\n"
    "      \"material\": \"Rock\"\n    },\n    {\n      \"xyzMin\": [3, 3, 3],\n"
    "      \"xyzMax\": [5, 5, 3],\n      \"material\": \"Air\"\n    }\n  ]\n}\n"
    "This would add a 5x5 slab of rock at z = 3, and remove a 3x3 hole from it, leaving a\n"
    "ring of rock at z = 3. This would capture 9 voxels of water. \n\n"
    "Rock connected (orthogonally) to other rock is rigid and supports itself, allowing caves, tunnels,\n"
    "bridges, overhangs, and promontories. Floating rock without any support structure will \n"
    "obviously fall to the ground.\n\n"
    "Now you understand the format - here is the task I need help with:\n\n"
    "Add rock or air voxels to the world in order to ensure that after the rains end,\n"
)

SCHEMA_LINE = ('Answer with JSON {"reasoning": str, "earthworks": [{"xyzMin": [x, y, z], '
               '"xyzMax": [x, y, z], "material": "Rock" | "Air"}, ...]}.')


class Raises(Exception):
    """Where the original grader raises (its runner records 10000)."""


# --- the simulation -----------------------------------------------------------------------

def build(n, earthworks):
    """The world after the earthworks: a bytearray indexed (x * n + y) * H + z."""
    w = bytearray(n * n * H)
    for c in range(n * n):
        w[c * H:c * H + 3] = b"\x01\x01\x01"
    for v in earthworks:
        lo, hi = v.get("xyzMin", [0, 0, 0]), v.get("xyzMax", [0, 0, 0])
        if len(lo) < 3 or len(hi) < 3:
            continue
        x0, y0, z0 = int(lo[0]), int(lo[1]), int(lo[2])
        x1, y1, z1 = int(hi[0]), int(hi[1]), int(hi[2])
        if x0 < 0 or x1 >= n or y0 < 0 or y1 >= n or z0 < 0 or z1 >= H:
            continue
        if x0 > x1 or y0 > y1 or z0 > z1:
            continue
        material = v.get("material", "Air")
        value = ROCK if material == "Rock" else AIR if material == "Air" else None
        if value is None:
            continue
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                for z in range(z0, z1 + 1):
                    w[(x * n + y) * H + z] = value
    return w


def components(w, n, value):
    """6-connected components of `value`, breadth-first from each first cell in x, y, z order."""
    seen = bytearray(len(w))
    out = []
    for start in range(len(w)):
        if w[start] != value or seen[start]:
            continue
        seen[start] = 1
        queue = deque([(start // H // n, start // H % n, start % H)])
        comp = []
        while queue:
            x, y, z = queue.popleft()
            comp.append((x, y, z))
            for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                nx, ny, nz = x + dx, y + dy, z + dz
                if 0 <= nx < n and 0 <= ny < n and 0 <= nz < H:
                    i = (nx * n + ny) * H + nz
                    if w[i] == value and not seen[i]:
                        seen[i] = 1
                        queue.append((nx, ny, nz))
        out.append(comp)
    return out


def settle(w, n):
    """Floating rock components drop until they rest (the original's loop)."""
    changed = True
    while changed:
        changed = False
        for comp in components(w, n, ROCK):
            low = min(z for _, _, z in comp)
            if low == 0:
                continue
            own = set(comp)
            dist = 0
            for d in range(1, low + 1):
                if all(w[(x * n + y) * H + z - d] != ROCK or (x, y, z - d) in own for x, y, z in comp):
                    dist = d
                else:
                    break
            if dist:
                for x, y, z in comp:
                    w[(x * n + y) * H + z] = AIR
                for x, y, z in comp:
                    w[(x * n + y) * H + z - dist] = ROCK
            changed = True


class Rain:
    def __init__(self, w, n):
        self.w, self.n = w, n
        self.region = {}  # (z, x, y) -> region id, interior non-rock cells
        self.air_below, self.touches = [], []
        interior = lambda x, y: 0 < x < n - 1 and 0 < y < n - 1  # noqa: E731
        for z in range(1, H):
            for x in range(1, n - 1):
                for y in range(1, n - 1):
                    if w[(x * n + y) * H + z] == ROCK or (z, x, y) in self.region:
                        continue
                    rid = len(self.air_below)
                    self.region[(z, x, y)] = rid
                    stack, air, touches = [(x, y)], 0, False
                    while stack:
                        cx, cy = stack.pop()
                        air += w[(cx * n + cy) * H + z - 1] == AIR
                        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                            if w[(nx * n + ny) * H + z] == ROCK:
                                continue
                            if not interior(nx, ny):
                                touches = True
                            elif (z, nx, ny) not in self.region:
                                self.region[(z, nx, ny)] = rid
                                stack.append((nx, ny))
                    self.air_below.append(air)
                    self.touches.append(touches)

    def water(self, x, y, z):
        self.w[(x * self.n + y) * H + z] = WATER
        rid = self.region.get((z + 1, x, y))
        if rid is not None:
            self.air_below[rid] -= 1

    def drop(self, x, y):
        """simulate_water_drop(x, y, 7): True when the drop is lost."""
        w, n = self.w, self.n
        z = H - 1
        while True:
            if z <= 0:
                return True
            if w[(x * n + y) * H + z - 1] == AIR:
                z -= 1
                continue
            rid = self.region.get((z, x, y))
            if rid is not None and self.air_below[rid] == 0 and self.touches[rid]:
                return True
            visited = {(x, y)}
            queue = deque([(x, y)])
            best, edge = None, False
            while queue:
                cx, cy = queue.popleft()
                if cx == 0 or cx == n - 1 or cy == 0 or cy == n - 1:
                    edge = True
                    continue
                if w[(cx * n + cy) * H + z - 1] == AIR:
                    best = (cx, cy)  # the first reached is the nearest the original keeps
                    break
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if (nx, ny) not in visited and w[(nx * n + ny) * H + z] != ROCK:
                        visited.add((nx, ny))
                        queue.append((nx, ny))
            if best:
                x, y = best
                z -= 1
                continue
            if edge:
                return True
            for cx, cy in visited:  # CPython's set order, as in the original
                if w[(cx * n + cy) * H + z] == AIR:
                    self.water(cx, cy, z)
                    return False
            for cx, cy in visited:
                if z + 1 < H and w[(cx * n + cy) * H + z + 1] == AIR:
                    self.water(cx, cy, z + 1)
                    return False
            return True

    def run(self):
        """The three stages; returns the stage-3 drop count, raises Raises where the
        original's assert fails."""
        n = self.n
        for x in range(n):
            for y in range(n):
                self.drop(x, y)
        c = n // 2
        centre = [(c, c), (c + 1, c), (c, c + 1), (c + 1, c + 1)]
        steady = False
        for _ in range(500):
            lost = True
            for px, py in centre:
                lost &= self.drop(px, py)
            if lost:
                steady = True
                break
        last = total = 0
        while last < 500:
            lost = steady
            if not steady:
                lost = True
                for px, py in centre:
                    lost &= self.drop(px, py)
            total += 4
            if total % 1000 == 0 and not total < n * n * H + 500:
                raise Raises(f"stage-3 assert at {total} drops")
            if lost:
                last += 1
                steady = True
            else:
                last = 0
        return total


def rained(n, earthworks):
    w = build(n, earthworks)
    settle(w, n)
    Rain(w, n).run()
    return w


# --- the goals (23.py's formulas and explanations) ------------------------------------------

def grade(sp, earthworks):
    n = SIZES[sp]
    w = rained(n, earthworks)
    at = lambda x, y, z: w[(x * n + y) * H + z]  # noqa: E731
    under = lambda x, y, z: any(at(x, y, zz) == ROCK for zz in range(z + 1, H))  # noqa: E731
    water = [(i // H // n, i // H % n, i % H) for i in range(len(w)) if w[i] == WATER]
    bodies = components(w, n, WATER)
    surface = lambda b: {(x, y) for x, y, _ in b}  # noqa: E731
    if sp == 0:
        m = max((len(surface(b)) for b in bodies), default=0)
        return (1, f"Lake with surface area {m} >= 36") if m >= 36 else (m / 36, f"Largest lake surface area: {m}/36")
    if sp == 1:
        def two(b):
            s = surface(b)
            return any((x + 1, y) in s and (x, y + 1) in s and (x + 1, y + 1) in s for x, y in s)
        k = sum(map(two, bodies))
        return (1, f"Found {k} bodies of water each at least 2x2") if k >= 3 else (k / 3, f"Found {k}/3 qualifying water bodies")
    if sp == 2:
        k = sum(z >= 6 for _, _, z in water)
        return (1, f"Found {k} water voxels at z > 5") if k >= 2 else (k / 2, f"Found {k}/2 high water voxels")
    if sp == 3:
        u = sum(under(*v) for v in water)
        vis = len(water) - u
        if vis:
            return 0, f"Found {vis} visible water voxels - must have NO visible water"
        return (1, f"Found {u} underground water voxels, none visible") if u >= 10 else (u / 10, f"Found {u}/10 underground water voxels")
    if sp == 4:
        levels = []
        for b in bodies:
            counts = {}
            for _, _, z in b:
                counts[z] = counts.get(z, 0) + 1
            levels.append(max(counts, key=lambda z: counts[z]))
        k, u = len(bodies), len(set(levels))
        if k >= 3 and u >= 3:
            return 1, f"Found {k} bodies on {u} different z levels"
        if k < 3:
            return k / 3, f"Found {k}/3 separate water bodies"
        return u / 3, f"Found {k} bodies but only on {u}/3 z levels"
    if sp == 5:
        best = 0
        for c in range(n * n):
            run = 0
            for z in range(H):
                run = run + 1 if w[c * H + z] == WATER else 0
                best = max(best, run)
        return (1, f"Found water column {best} deep") if best >= 6 else (best / 6, f"Deepest water column: {best}/6")
    if sp == 6:
        k = sum(len(b) >= 200 for b in bodies)
        return (1, f"Found {k} bodies of water each >= 200 voxels") if k >= 2 else (k / 2, f"Found {k}/2 qualifying water bodies")
    if sp == 7:
        out = None
        for b in bodies:
            s = surface(b)
            if len(s) < 12:
                continue
            xs, ys = [x for x, _ in s], [y for _, y in s]
            for cx in range(min(xs) + 1, max(xs) - 1):
                for cy in range(min(ys) + 1, max(ys) - 1):
                    dry = all((cx + dx, cy + dy) not in s for dx in range(3) for dy in range(3))
                    ring = all((cx + d, cy - 1) in s and (cx + d, cy + 3) in s and (cx - 1, cy + d) in s
                               and (cx + 3, cy + d) in s for d in range(3))
                    if dry and ring:
                        out = 1, f"Found ring-shaped lake surrounding dry 3x3 at ({cx},{cy})"
        return out or (0, "No ring-shaped lake found surrounding a dry 3x3 center")
    if sp == 8:
        has = {z: any(v[2] == z for v in water) for z in (3, 4, 5, 6)}
        score = has[3] + has[6]
        if has[4] or has[5]:
            return 0, f"Water found at forbidden z levels (z=4: {has[4]}, z=5: {has[5]})"
        return (1, "Water at z=3 and z=6, none at z=4 or z=5") if score == 2 else (score / 2, f"Water at z=3: {has[3]}, z=6: {has[6]}")
    if sp == 9:
        t = len(water)
        return max(0, 1 - abs(t - 100) / 100), f"Found {t} water voxels (need exactly 100)"
    vis = any(not all(under(*v) for v in b) for b in bodies)
    k = sum(len(b) >= 5 and all(under(*v) for v in b) for b in bodies)
    if vis:
        return 0, "Some water is visible from above - all water must be underground"
    return (1, f"Found {k} underground lakes each >= 5 voxels") if k >= 4 else (k / 4, f"Found {k}/4 qualifying underground lakes")


# --- reference earthworks --------------------------------------------------------------------

def box(lo, hi, material):
    return {"xyzMin": list(lo), "xyzMax": list(hi), "material": material}


def basin(x0, y0, x1, y1, z_top, floor=3):
    """A rock ring on the rectangle [x0..x1] × [y0..y1] from z = 3 to z_top, dug out inside
    down to `floor` (below 3 digs into the bedrock)."""
    return [box((x0, y0, 3), (x1, y1, z_top), "Rock"),
            box((x0 + 1, y0 + 1, floor), (x1 - 1, y1 - 1, z_top), "Air")]


def sealed_box(x0, y0, x1, y1):
    """A closed rock box (walls z = 3..7, roof at z = 7, air inside at z = 3..6): the rain
    starts at z = 7, inside the roof, and falls through it, so the water gathers under rock."""
    return [box((x0, y0, 3), (x1, y1, 7), "Rock"), box((x0 + 1, y0 + 1, 3), (x1 - 1, y1 - 1, 6), "Air")]


def references():
    """One design per goal: (earthworks, reasoning)."""
    return [
        (basin(2, 2, 13, 13, 4), "A 10 x 10 basin two voxels deep around the centre."),
        (basin(2, 2, 5, 5, 3) + basin(8, 2, 11, 5, 3) + basin(2, 8, 5, 11, 3),
         "Three separate rings of rock, each holding a 2 x 2 pond filled by the first sprinkle."),
        (basin(12, 12, 19, 19, 7), "A walled basin around the centre, walls up to z = 7."),
        (sealed_box(15, 15, 24, 24), "A closed rock box around the centre: rain falls through "
                                     "the roof and pools under it."),
        (basin(4, 4, 9, 9, 3) + [box((14, 4, 3), (21, 11, 5), "Rock"), box((15, 5, 5), (20, 10, 5), "Air"),
                                  box((30, 30, 1), (35, 35, 2), "Air")],
         "A pond at z = 3, a pond on a raised platform at z = 5, and a pit dug to z = 1."),
        ([box((26, 26, 3), (31, 31, 7), "Rock"), box((27, 27, 1), (30, 30, 7), "Air")],
         "A walled well dug into the bedrock: water from z = 1 to z = 7."),
        (basin(20, 26, 32, 38, 5) + basin(33, 26, 45, 38, 5) + [box((32, 32, 3), (33, 33, 6), "Rock")],
         "Two basins either side of a 2 x 2 pillar under the centre drops, which splits them "
         "two to each side."),
        (basin(19, 19, 27, 27, 4) + [box((22, 22, 3), (24, 24, 7), "Rock")],
         "A moat two cells wide around a 3 x 3 rock island."),
        (basin(4, 4, 9, 9, 3) + [box((14, 4, 3), (21, 11, 6), "Rock"), box((15, 5, 6), (20, 10, 6), "Air")],
         "A pond at z = 3 and a pond on a platform at z = 6."),
        (basin(19, 19, 30, 30, 3), "A 10 x 10 pond one voxel deep under the centre: exactly 100 voxels."),
        (sealed_box(4, 4, 8, 8) + sealed_box(12, 4, 16, 8) + sealed_box(4, 12, 8, 16) + sealed_box(12, 12, 16, 16),
         "Four closed boxes whose roofs the rain falls through."),
    ]


def counterexamples(sp, n, ref):
    """(earthworks or raw payload, why) failures of goal sp."""
    cases = [
        ({"reasoning": "", "earthworks": [{"xyzMin": [0], "xyzMax": [0], "material": "Air"}]},
         "the schema-minimal answer (coordinates too short: skipped, so the flat world sheds all rain)"),
        ({"reasoning": "Leave the terrain as it is.", "earthworks": []}, "no earthworks: all rain runs off"),
        ({"earthworks": [box((b["xyzMin"][0] + n, b["xyzMin"][1], b["xyzMin"][2]),
                             (b["xyzMax"][0] + n, b["xyzMax"][1], b["xyzMax"][2]), b["material"]) for b in ref]},
         "the reference shifted off the map: every box is out of bounds and skipped"),
    ]
    leaky = [dict(b) for b in ref]
    first_rock = next(b for b in leaky if b["material"] == "Rock")
    x0, y0, z0 = first_rock["xyzMin"]
    leaky.append(box((x0, y0 + 1, 3), (x0, y0 + 1, 7), "Air"))
    cases.append(({"earthworks": leaky}, "the reference with a hole in a wall"))
    extra = {
        0: ({"earthworks": basin(5, 5, 11, 11, 4)}, "a basin of 5 x 5: 25/36 of the surface"),
        1: ({"earthworks": basin(2, 2, 5, 5, 3) + basin(8, 2, 11, 5, 3)}, "only two ponds"),
        2: ({"earthworks": basin(12, 12, 19, 19, 5)}, "walls up to z = 5: no water above z = 5"),
        3: ({"earthworks": basin(15, 15, 24, 24, 6)}, "an open basin: its water is visible from above"),
        4: ({"earthworks": basin(4, 4, 9, 9, 3) + basin(14, 4, 21, 11, 3) + basin(30, 30, 35, 35, 3)},
            "three ponds, all at z = 3"),
        5: ({"earthworks": basin(26, 26, 31, 31, 6)}, "a basin only 4 voxels deep"),
        6: ({"earthworks": basin(20, 26, 32, 38, 5)}, "one basin only"),
        7: ({"earthworks": basin(19, 19, 27, 27, 4)}, "a pond without an island"),
        8: ({"earthworks": basin(4, 4, 9, 9, 4) + [box((14, 4, 3), (21, 11, 6), "Rock"),
                                                  box((15, 5, 6), (20, 10, 6), "Air")]},
            "the low pond is two deep: water at z = 4"),
        9: ({"earthworks": basin(19, 19, 31, 31, 3)}, "an 11 x 11 pond: 121 voxels"),
        10: ({"earthworks": sealed_box(4, 4, 8, 8) + sealed_box(12, 4, 16, 8) + sealed_box(4, 12, 8, 16)
              + basin(12, 12, 16, 16, 6)}, "three closed boxes and an open basin"),
    }
    cases.append(extra[sp])
    return cases


def answer_text(a):
    return repr(a)


def generate():
    for sp, n in enumerate(SIZES):
        works, reasoning = references()[sp]
        score, message = grade(sp, works)
        assert score == 1, (sp, score, message)
        reference = answer_text({"reasoning": reasoning, "earthworks": works})
        counter = []
        for payload, why in counterexamples(sp, n, works):
            s, m = grade(sp, payload["earthworks"])
            if s < 1:  # kept only where the grader rejects it (a leak may not matter)
                counter.append((answer_text(payload), f"{why}: {m}"))
        counter.append(("{'reasoning': 'x', 'earthworks': ['not a dict']}",
                        "an earthwork that is not a dict (the original raises: runner 10000)"))
        counter.append(("{'reasoning': 'x', 'earthworks': {'xyzMin': [1, 1, 3]}}",
                        "earthworks that are not a list (\"earthworks must be a list\", score 0)"))
        write_item(
            ITEMS, f"scbench/q23/{sp}", "scbench-q23-fluid-simulation", reference, counter,
            {"benchmark": "scbench", "type": "construction", "category": "planning",
             "source": f"SCBench Q23 Fluid simulation, subpass {sp}: {SOURCE_REPO} 23.py @ 1c0b05e",
             "problem": f"Voxel earthworks on a {n} x {n} x 8 world so that after the rain {GOALS[sp]}",
             "construction_instruction": PROMPT.replace("PARAM_A", str(n)) + GOALS[sp] + "\n\n" + SCHEMA_LINE},
            {"subpass": sp, "size": n},
            {"fuel": 30_000_000_000, "memory_bytes": 67_108_864, "timeout_ms": 20_000})
        print(f"q23/{sp}: N = {n}, reference {message}")
