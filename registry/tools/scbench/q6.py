"""SCBench Q6 Voxel Grid Projection: `6.py` (sizes and counts copied below); reference voxel sets from the
seeded constructive search below.
"""

import json
import random

from common import ITEMS, SOURCE_REPO, write_item


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


def generate():
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
