"""SCBench Q16 Pack rectangular prisms: `16.py` (commit 1c0b05e; prism table, prompt and the
"theoretically perfectly packable" rule copied below as facts). Reference packings come from a
deterministic slice packer (boxes laid in slices across a bar of fixed cross-section, each slice
filled by a guillotine rectangle packer, the bar cross-sections found by searching every W x H);
subpass 2 uses an exact 5 x 7 x 193 packing, which the original's hard-coded "impossible" misses.
Every witness and counterexample is graded by a Python port of `gradeAnswer` before it is written.
"""

import json
from math import gcd, isqrt
from functools import reduce

from common import ITEMS, SOURCE_REPO, write_item

# prismList: [count, a, b, c], largest dimension first; subpass s uses rows 0..s.
PRISMS = [[7, 5, 3, 2], [11, 7, 5, 3], [14, 11, 7, 5], [17, 13, 11, 7], [19, 17, 13, 11],
          [23, 19, 17, 13], [15, 5, 5, 1], [2, 17, 10, 2], [50, 50, 50, 50]]

PROMPT = """
You are given the following rectangular prisms:

PRISM_LIST

and have to pack them as efficiently as possible into the smallest volume possible.
You can rotate the prisms orthogonally. Return a list of min/max xyz coordinates, one
per box that you've successfully packed.

A perfect answer is one in which the volume of the enclosing bounding box is the same as
the sum of the volumes of the prisms.

Every bit of unused space is a point of failure, effort should be taken to elimiate
unused space.
"""

SCHEMA = 'Answer with JSON {"boxes": [{"XyzMin": [x, y, z], "XyzMax": [x, y, z]}, ...]}.'

# Bar cross-sections (W, H) for the slice packer, found by trying every W x H (largest box's two
# smaller sides up to three times its largest) and keeping the densest packing.
BARS = {0: (14, 5), 1: (22, 5), 3: (11, 7), 4: (13, 11), 5: (49, 13), 6: (49, 13), 7: (34, 13),
        8: (100, 50)}


def prism_list_text(sp):
    return "\n".join(f"{a} prisms of {b}x{c}x{d}" for a, b, c, d in PRISMS[:sp + 1])


# --- the original's isTheoreticallySolvablePerfectly (hard-coded False for 2, 3 and 8) ---

def divisors(n):
    out = []
    for i in range(1, isqrt(n) + 1):
        if n % i == 0:
            out += [i] if i == n // i else [i, n // i]
    return sorted(out)


def decompositions(n):
    ds = [d for d in divisors(n) if d > 1]
    out = []
    for x in ds:
        if x ** 3 > n:
            break
        rest = n // x
        for y in ds:
            if y < x:
                continue
            if y * y > rest:
                break
            if rest % y == 0 and rest // y >= y:
                out.append((x, y, rest // y))
    return out


def can_sum_to(target, dims):
    if target in dims:
        return True
    if target > 10000:
        return target % reduce(gcd, dims) == 0
    reach = [True] + [False] * target
    for i in range(1, target + 1):
        reach[i] = any(d <= i and reach[i - d] for d in dims)
    return reach[target]


def perfectly_packable(sp):
    if sp in (2, 3, 8):
        return False
    boxes = [sorted([a, b, c]) for n, a, b, c in PRISMS[:sp + 1] for _ in range(n)]
    volume = sum(a * b * c for a, b, c in boxes)
    need = [max(b[k] for b in boxes) for k in range(3)]
    dims = {d for b in boxes for d in b}
    return any(x >= need[0] and y >= need[1] and z >= need[2] and all(can_sum_to(d, dims) for d in (x, y, z))
               for x, y, z in decompositions(volume))


# --- a port of gradeAnswer, for checking what is written ---

def grade(answer, sp):
    if isinstance(answer, list):
        answer = max([i for i in answer if isinstance(i, dict) and isinstance(i.get("boxes"), list)],
                     key=lambda i: len(i["boxes"]), default={"boxes": []})
    expected = sum(a * b * c * d for a, b, c, d in PRISMS[:sp + 1])
    if "boxes" not in answer or not isinstance(answer["boxes"], list):
        return 0, "Invalid answer format: missing boxes list"
    boxes = answer["boxes"]
    if any(len(b["XyzMin"]) != 3 or len(b["XyzMax"]) != 3 for b in boxes):
        return 0, "Invalid box coordinates"
    ext = [[b["XyzMax"][k] - b["XyzMin"][k] for k in range(3)] for b in boxes]
    volume = 0
    for e in ext:
        volume += e[0] * e[1] * e[2]
    why = f"Answer volume: {volume}, Expected volume: {expected}"
    if volume != expected:
        return 0, why + (f"\nBoxes are overlapping: Sum of prisms volume: {expected}, "
                         f"Union of answer prisms volume: {volume}")
    sizes = [tuple(sorted(e, reverse=True)) for e in ext]
    for n, x, y, z in PRISMS[:sp + 1]:
        if sizes.count((x, y, z)) != n:
            return 0, why + f"\nBox count mismatch for {x}x{y}x{z}: expected {n}, got {sizes.count((x, y, z))}"
    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes):
            if i != j and all(a["XyzMin"][k] < b["XyzMax"][k] and a["XyzMax"][k] > b["XyzMin"][k] for k in range(3)):
                return 0, why + "\nBox overlap detected"
    if any(c < 0 for b in boxes for c in b["XyzMin"]):
        return 0, why + "\nBox with negative coordinates detected"
    top = [0, 0, 0]
    for b in boxes:
        top = [max(top[k], b["XyzMax"][k]) for k in range(3)]
    enclosing = top[0] * top[1] * top[2]
    score = volume / enclosing
    if not perfectly_packable(sp):
        score = min(1, score / 0.95)
    return score, why + f"\nPacking efficiency: {volume / enclosing * 100:.1f}% (enclosing volume: {enclosing})"


# --- the slice packer ---

def pack2d(width, height, items):
    """Guillotine packing of rectangles (best short-side fit, split along the shorter leftover);
    items: [(id, [(w, h), ...])] in priority order. Returns [(id, x, y, w, h)]."""
    free, placed = [(0, 0, width, height)], []
    for iid, options in items:
        best = None
        for fi, (fx, fy, fw, fh) in enumerate(free):
            for w, h in options:
                if w <= fw and h <= fh:
                    key = (min(fw - w, fh - h), max(fw - w, fh - h))
                    if best is None or key < best[0]:
                        best = (key, fi, w, h)
        if best is None:
            continue
        _, fi, w, h = best
        fx, fy, fw, fh = free.pop(fi)
        placed.append((iid, fx, fy, w, h))
        if fw - w < fh - h:
            parts = [(fx + w, fy, fw - w, h), (fx, fy + h, fw, fh - h)]
        else:
            parts = [(fx + w, fy, fw - w, fh), (fx, fy + h, w, fh - h)]
        free += [p for p in parts if p[2] > 0 and p[3] > 0]
    return placed


def fill_slice(width, height, length, remaining):
    """One slice of the bar: each box that fits lies with its largest side <= length along the bar."""
    items, along = [], {}
    for i, b in enumerate(remaining):
        fits = [k for k in range(3) if b[k] <= length]
        if not fits:
            continue
        depth = max(b[k] for k in fits)
        rects = set()
        for k in fits:
            if b[k] == depth:
                p, q = [b[j] for j in range(3) if j != k]
                rects |= {(p, q), (q, p)}
        items.append((i, sorted(rects)))
        along[i] = depth
    items.sort(key=lambda t: -remaining[t[0]][0] * remaining[t[0]][1] * remaining[t[0]][2])
    return [(i, x, y, w, h, along[i]) for i, x, y, w, h in pack2d(width, height, items)]


def pack_bar(width, height, boxes):
    """Slices along z, each the densest of the candidate lengths (every remaining box side)."""
    remaining, z, out = list(boxes), 0, []
    while remaining:
        best = None
        for length in sorted({d for b in remaining for d in b}):
            placed = fill_slice(width, height, length, remaining)
            if placed:
                volume = sum(w * h * a for *_, w, h, a in placed)
                key = (volume / (width * height * length), volume)
                if best is None or key > best[0]:
                    best = (key, length, placed)
        if best is None:
            raise RuntimeError(f"a box does not fit a {width} x {height} bar")
        _, length, placed = best
        out += [([x, y, z], [x + w, y + h, z + a]) for _, x, y, w, h, a in placed]
        used = {p[0] for p in placed}
        remaining = [b for i, b in enumerate(remaining) if i not in used]
        z += length
    return out


def exact_sp2():
    """5 x 7 x 193: the 14 11x7x5 prisms in a row, the 11 7x5x3 ones, then the 7 5x3x2 ones in a
    5 x 7 x 6 block (5 deep; the 7 x 6 face tiled by 3x2 rectangles)."""
    out = [([0, 0, 11 * i], [5, 7, 11 * i + 11]) for i in range(14)]
    out += [([0, 0, 154 + 3 * i], [5, 7, 157 + 3 * i]) for i in range(11)]
    out += [([0, 0, 187 + 2 * i], [5, 3, 189 + 2 * i]) for i in range(3)]
    out += [([0, y, z], [5, y + 2, z + 3]) for y in (3, 5) for z in (187, 190)]
    return out


def packing(sp):
    if sp == 2:
        return exact_sp2()
    boxes = sorted((tuple(sorted([a, b, c], reverse=True)) for n, a, b, c in PRISMS[:sp + 1] for _ in range(n)),
                   key=lambda b: -b[0] * b[1] * b[2])
    return pack_bar(*BARS[sp], boxes)


def as_json(boxes):
    return json.dumps({"boxes": [{"XyzMin": list(lo), "XyzMax": list(hi)} for lo, hi in boxes]},
                      separators=(",", ":"))


def counterexamples(sp, boxes):
    """Realistic failures, each checked to score below 1 with the expected explanation."""
    (lo0, hi0), (lo1, _) = boxes[0], boxes[1]
    # box 0 moved so that its min corner is box 1's
    moved = [(list(lo1), [lo1[k] + hi0[k] - lo0[k] for k in range(3)])] + boxes[1:]
    grow = 7
    shifted = [([lo[0] + grow, lo[1], lo[2]], [hi[0] + grow, hi[1], hi[2]]) for lo, hi in boxes]
    negative = [([lo[0] - 1, lo[1], lo[2]], [hi[0] - 1, hi[1], hi[2]]) for lo, hi in boxes]
    # Two 5x3x2 prisms traded for one 5x4x3 box of the same volume, far away.
    small = [i for i, (lo, hi) in enumerate(boxes) if sorted(h - l for l, h in zip(lo, hi)) == [2, 3, 5]]
    far = max(hi[0] for _, hi in boxes) + 10
    traded = [b for i, b in enumerate(boxes) if i not in small[:2]] + [([far, 0, 0], [far + 5, 4, 3])]
    cases = [
        (as_json(moved), "one box moved onto another: overlap", "Box overlap detected"),
        (as_json(boxes[1:]), "one box left out: the volume falls short", "Boxes are overlapping"),
        (as_json(traded), "two 5x3x2 prisms replaced by one 5x4x3 box of the same volume",
         "Box count mismatch for 5x3x2: expected 7, got 5"),
        (as_json(negative), "the packing shifted to x = -1", "Box with negative coordinates detected"),
        (as_json([(lo0[:2], hi0)] + boxes[1:]), "a box with two coordinates", "Invalid box coordinates"),
        (as_json(shifted), f"the packing moved {grow} along x: the origin-anchored bounding box grows, "
                           "a partial score", "Packing efficiency"),
        ("{'boxes': [{'XyzMin': [0], 'XyzMax': [0]}]}", "the schema-minimal 'always wrong' answer",
         "Invalid box coordinates"),
    ]
    out = []
    for payload, why, expect in cases:
        score, explanation = grade(json.loads(payload.replace("'", '"')), sp)
        assert score < 1 and expect in explanation, (sp, why, score, explanation)
        out.append((payload, f"{why} (score {score:.4f})" if score else why))
    return out


def generate():
    for sp in range(len(PRISMS)):
        rows = PRISMS[:sp + 1]
        boxes = packing(sp)
        reference = as_json(boxes)
        score, explanation = grade(json.loads(reference), sp)
        assert score == 1, (sp, score, explanation)
        volume = sum(a * b * c * d for a, b, c, d in rows)
        top = [max(hi[k] for _, hi in boxes) for k in range(3)]
        prompt = PROMPT.replace("PRISM_LIST", prism_list_text(sp))
        write_item(
            ITEMS, f"scbench/q16/{sp}", "scbench-q16-pack-prisms", reference, counterexamples(sp, boxes),
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q16 Pack rectangular prisms, subpass {sp}: {SOURCE_REPO} 16.py @ 1c0b05e",
             "problem": f"Pack {sum(r[0] for r in rows)} rectangular prisms (total volume {volume}) into "
                        "the smallest box",
             "construction_instruction": prompt + "\n" + SCHEMA},
            {"subpass": sp, "prisms": rows, "expected_volume": volume,
             "perfectly_packable": perfectly_packable(sp), "perfectly_packable_corrected": sp <= 2},
            limits={"fuel": 500_000_000, "memory_bytes": 67_108_864, "timeout_ms": 10_000})
        print(f"q16/{sp}: {len(boxes)} boxes, volume {volume} in {top[0]}x{top[1]}x{top[2]} "
              f"({volume / (top[0] * top[1] * top[2]):.2%}), perfectly packable {perfectly_packable(sp)}")
