#!/usr/bin/env python3
"""Generate the TangramPuzzle registry items: Task 2 (registry/items/tangram/) and Task 1
(registry/items/tangram-outline/).

No TangramPuzzle data is public, so the items are built here: each target silhouette is an exact
assembly of the seven classic pieces (cut from a 4 x 4 square), optionally turned by 45 degrees so
its coordinates are surds, and placed with its lower and left boundaries on the axes, as the
paper's normalisation does. Coordinates are exact numbers a + b*sqrt(2) written in LaTeX.

Task 2 (End-to-End Tangram Solution Generation), for each assembly: the target outline (vertices
and edges) and the seven canonical pieces (scattered, the TCE `initial_state`) in
instance/instance.json; the assembly as the reference witness; and realistic failures as
counterexamples: a stretched piece, an overlap, a missing piece, a swapped type, a piece slid out
of place (valid, not the target), decimal approximations, prose only.

Task 1 (Outline Prediction), for each assembly: the pieces' TCE (`final_state`), four candidate
outlines and which is true in instance/instance.json, and the image the model sees,
instance/candidates.svg (panels A-D at one scale). The true outline is rebuilt from the pieces
(exact union in Q(sqrt 2), checked against Task 2's target); the distractors are a near miss (one
piece moved, still a valid assembly), the truth mirrored and other assemblies' outlines, each
checked to differ from the truth and from each other as point sets; the option order comes from
a fixed seed. Reference witness: the true letter; counterexamples: every wrong letter, two
letters, a letter outside A-D, prose naming none.

`verigate registry verify` checks the witnesses against the `tangram` and `tangram-outline`
verifiers. Re-running rewrites byte-identical files.

Usage: python3 registry/tools/tangram.py   (rewrites registry/items/tangram/<name> and
registry/items/tangram-outline/<name>)
"""

import hashlib
import json
from fractions import Fraction as F
from pathlib import Path

from itemfiles import write_item

ROOT = Path(__file__).resolve().parents[2]
ITEMS = ROOT / "registry" / "items" / "tangram"
LIMITS = {"fuel": 1_000_000_000, "memory_bytes": 67_108_864, "timeout_ms": 5_000}


class Q2:
    """a + b*sqrt(2), a and b rational."""

    def __init__(self, a, b=0):
        self.a, self.b = F(a), F(b)

    def __add__(self, o):
        return Q2(self.a + o.a, self.b + o.b)

    def __sub__(self, o):
        return Q2(self.a - o.a, self.b - o.b)

    def __mul__(self, o):
        return Q2(self.a * o.a + 2 * self.b * o.b, self.a * o.b + self.b * o.a)

    def __neg__(self):
        return Q2(-self.a, -self.b)

    def __eq__(self, o):
        return (self.a, self.b) == (o.a, o.b)

    def __hash__(self):
        return hash((self.a, self.b))

    def sign(self):
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        return sa if self.a * self.a > 2 * self.b * self.b else sb

    def __lt__(self, o):
        return (self - o).sign() < 0

    def __le__(self, o):
        return (self - o).sign() <= 0

    def __gt__(self, o):
        return (self - o).sign() > 0

    def __ge__(self, o):
        return (self - o).sign() >= 0

    def __float__(self):
        return float(self.a) + float(self.b) * 2 ** 0.5

    def latex(self):
        def rational(r):
            if r.denominator == 1:
                return str(r.numerator)
            sign = "-" if r < 0 else ""
            return f"{sign}\\frac{{{abs(r.numerator)}}}{{{r.denominator}}}"

        def surd(r):
            n, d = abs(r.numerator), r.denominator
            body = "\\sqrt{2}" if n == 1 else f"{n}\\sqrt{{2}}"
            if d != 1:
                body = f"\\frac{{{body}}}{{{d}}}"
            return body

        if self.b == 0:
            return rational(self.a)
        if self.a == 0:
            return ("-" if self.b < 0 else "") + surd(self.b)
        return rational(self.a) + (" - " if self.b < 0 else " + ") + surd(self.b)


HALF_ROOT = Q2(0, F(1, 2))  # sqrt(2)/2

# The classic square on [0, 4]^2: (id, type, vertices), counter-clockwise.
CLASSIC = [
    ("T1", "large_triangle", [(0, 0), (4, 0), (2, 2)]),
    ("T2", "large_triangle", [(0, 0), (2, 2), (0, 4)]),
    ("M", "medium_triangle", [(4, 4), (2, 4), (4, 2)]),
    ("S1", "small_triangle", [(2, 2), (3, 3), (1, 3)]),
    ("S2", "small_triangle", [(4, 0), (4, 2), (3, 1)]),
    ("SQ", "square", [(2, 2), (3, 1), (4, 2), (3, 3)]),
    ("P", "parallelogram", [(0, 4), (1, 3), (3, 3), (2, 4)]),
]


def moved(pieces, piece_id, vertices):
    return [(i, t, vertices if i == piece_id else v) for i, t, v in pieces]


HALF = F(1, 2)

# Silhouettes on the grid: (name, description, pieces, outline counter-clockwise, slide), where
# slide = (piece, vector) moves one piece along an edge it shares with a neighbour so that it
# stays attached but sticks out of the outline (a valid assembly that is not the target).
SHAPES = [
    ("square", "the classic square", CLASSIC, [(0, 0), (4, 0), (4, 4), (0, 4)],
     ("S2", (HALF, HALF))),
    ("flag", "a square whose lower right small triangle moved up to the right edge",
     moved(CLASSIC, "S2", [(4, 2), (5, 3), (4, 4)]),
     [(0, 0), (4, 0), (3, 1), (4, 2), (5, 3), (4, 4), (0, 4)], ("S2", (0, HALF))),
    ("chair", "a square whose parallelogram moved from the top to the left edge",
     moved(CLASSIC, "P", [(0, 0), (0, 2), (-1, 3), (-1, 1)]),
     [(0, 0), (4, 0), (4, 4), (2, 4), (3, 3), (1, 3), (0, 4), (0, 2), (-1, 3), (-1, 1)],
     ("S2", (HALF, HALF))),
]


def turn(p):
    """Rotation by 45 degrees about the origin."""
    x, y = p
    return ((x - y) * HALF_ROOT, (x + y) * HALF_ROOT)


def exact(p):
    return (Q2(p[0]), Q2(p[1]))


def placement(outline, turned):
    """Grid point -> exact point: turned if asked, shifted so the outline touches both axes."""
    f = (lambda p: turn(exact(p))) if turned else exact
    moved_outline = [f(p) for p in outline]
    dx = min(p[0] for p in moved_outline)
    dy = min(p[1] for p in moved_outline)
    return lambda p: (f(p)[0] - dx, f(p)[1] - dy)


def vertices_json(points, decimals=False):
    if decimals:
        return [[round(float(x), 4), round(float(y), 4)] for x, y in points]
    return [[x.latex(), y.latex()] for x, y in points]


def tce(name, pieces, place, decimals=False):
    state = [{"id": i, "type": t, "vertices": vertices_json([place(p) for p in v], decimals)}
             for i, t, v in pieces]
    return json.dumps({"instance_id": name, "final_state": {"pieces": state}}, ensure_ascii=False)


def counterexamples(name, pieces, slide, place):
    """Realistic failures, built on the grid and placed like the assembly."""
    by_id = {i: v for i, _, v in pieces}
    (a, b, apex) = by_id["T1"]
    stretched = [a, b, (apex[0] + (apex[0] - a[0]) * HALF, apex[1] + (apex[1] - a[1]) * HALF)]
    sq = by_id["SQ"]
    onto_square = [sq[0], sq[2], sq[1]]
    piece, (dx, dy) = slide
    slid = [(x + dx, y + dy) for x, y in by_id[piece]]
    swapped = [(i, "small_triangle" if t == "square" else t, v) for i, t, v in pieces]
    return [
        (tce(name, moved(pieces, "T1", stretched), place),
         "a large triangle stretched: its apex pushed out (RGE)"),
        (tce(name, moved(pieces, "S2", onto_square), place),
         "a small triangle laid over the square (PE)"),
        (tce(name, [p for p in pieces if p[0] != "P"], place), "the parallelogram left out (TSE)"),
        (tce(name, swapped, place), "the square labelled as a third small triangle (TSE)"),
        (tce(name, moved(pieces, piece, slid), place),
         "a small triangle slid along a shared edge: still valid, no longer the target"),
        ("The assembly places the two large triangles along the diagonal and fills the rest "
         "with the remaining pieces.", "prose, no TCE"),
    ]


def instance(name, outline, place):
    # The canonical pieces, scattered: piece k moved 6k to the right and 8 down.
    initial = [{"id": i, "type": t, "vertices": vertices_json([exact((x + 6 * k, y - 8)) for x, y in v])}
               for k, (i, t, v) in enumerate(CLASSIC)]
    n = len(outline)
    return {
        "instance_id": name,
        "target_outline": {"vertices": vertices_json([place(p) for p in outline]),
                           "edges": [[k, (k + 1) % n] for k in range(n)]},
        "initial_state": {"pieces": initial},
    }


def instruction(item):
    outline = item["target_outline"]["vertices"]
    listed = ", ".join(f"({x}, {y})" for x, y in outline)
    pieces = "\n".join(f"- {p['id']} ({p['type']}): " + ", ".join(f"({x}, {y})" for x, y in p["vertices"])
                       for p in item["initial_state"]["pieces"])
    return (
        "Assemble the seven tangram pieces (translations, rotations and reflections only) so that "
        "they exactly fill the target outline, without overlaps.\n\n"
        f"Target outline vertices, in order (edges join consecutive vertices): {listed}\n\n"
        f"Initial state of the pieces:\n{pieces}\n\n"
        "Coordinates are exact LaTeX expressions. Output the Tangram Construction Expression as "
        'JSON: {"final_state": {"pieces": [{"id": …, "type": …, "vertices": [[x, y], …]}, …]}}, '
        "with exact LaTeX coordinates for every vertex of every piece.")


# ---------------------------------------------------------------------------------------------
# Exact plane geometry on points (x, y) of Q2: what Task 1 needs to rebuild an outline from the
# pieces and to tell two outlines apart.
# ---------------------------------------------------------------------------------------------

ZERO = Q2(0)


def sub(p, q):
    return (p[0] - q[0], p[1] - q[1])


def cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1]


def edges(poly):
    return list(zip(poly, poly[1:] + poly[:1]))


def area2(poly):
    """Twice the signed area (positive: counter-clockwise)."""
    total = ZERO
    for p, q in edges(poly):
        total = total + cross(p, q)
    return total


def counter_clockwise(poly):
    return list(poly) if area2(poly).sign() > 0 else list(reversed(poly))


def interiors_overlap(p, q):
    """Whether two convex counter-clockwise polygons share interior points: no edge of either is
    a separating line."""
    for poly, other in ((p, q), (q, p)):
        for a, b in edges(poly):
            if all(cross(sub(b, a), sub(v, a)).sign() <= 0 for v in other):
                return False
    return True


def share_an_edge(p, q):
    """Whether two polygons have a common stretch of boundary of positive length (one common
    point is not enough: TangramPuzzle's PE rule, as guest-verifiers/tangram reads it)."""
    for a, b in edges(p):
        d = sub(b, a)
        for c, e in edges(q):
            if cross(d, sub(c, a)).sign() or cross(d, sub(e, a)).sign():
                continue
            lo, hi = sorted([dot(sub(c, a), d), dot(sub(e, a), d)])
            if max(lo, ZERO) < min(hi, dot(d, d)):
                return True
    return False


def simplified(loop):
    """A closed chain without its straight-through vertices, starting at its least vertex."""
    loop = list(loop)
    changed = True
    while changed and len(loop) > 3:
        changed = False
        for i in range(len(loop)):
            prev, cur, nxt = loop[i - 1], loop[i], loop[(i + 1) % len(loop)]
            if cross(sub(cur, prev), sub(nxt, cur)).sign() == 0:
                del loop[i]
                changed = True
                break
    k = loop.index(min(loop))
    return loop[k:] + loop[:k]


def union_boundary(polys):
    """The boundary of the union of polygons with disjoint interiors, as closed chains
    (counter-clockwise around the region, clockwise around holes), straight-through vertices
    dropped. Every edge is split at the vertices lying on it; pieces of edge that two polygons
    share run both ways and cancel; what is left is the boundary. Refuses a boundary that
    touches itself (a vertex where two chains meet)."""
    polys = [counter_clockwise(p) for p in polys]
    points = {v for p in polys for v in p}
    count = {}
    for p in polys:
        for a, b in edges(p):
            d = sub(b, a)
            inner = sorted((dot(sub(v, a), d), v) for v in points
                           if v != a and v != b and cross(d, sub(v, a)).sign() == 0
                           and ZERO < dot(sub(v, a), d) < dot(d, d))
            chain = [a] + [v for _, v in inner] + [b]
            for u, w in zip(chain, chain[1:]):
                count[(u, w)] = count.get((u, w), 0) + 1
    if any(n > 1 for n in count.values()):
        raise ValueError("two pieces overlap along an edge")
    following = {}
    for u, w in sorted(e for e in count if (e[1], e[0]) not in count):
        if u in following:
            raise ValueError(f"the outline touches itself at ({float(u[0])}, {float(u[1])})")
        following[u] = w
    loops = []
    while following:
        start = min(following)
        loop, v = [start], following.pop(start)
        while v != start:
            loop.append(v)
            v = following.pop(v)
        loops.append(simplified(loop))
    return loops


def normalized(poly):
    """Moved so that its lower boundary lies on the x-axis and its left one on the y-axis."""
    dx = min(p[0] for p in poly)
    dy = min(p[1] for p in poly)
    return [(x - dx, y - dy) for x, y in poly]


def outline(polys):
    """The single outline of a valid assembly, normalised; refuses overlapping, disconnected
    (or only corner-joined) pieces, holes and self-touching outlines."""
    polys = [counter_clockwise(p) for p in polys]
    for i, p in enumerate(polys):
        for q in polys[i + 1:]:
            if interiors_overlap(p, q):
                raise ValueError("two pieces overlap")
    joined, pending = {0}, [0]
    while pending:
        i = pending.pop()
        for j in range(len(polys)):
            if j not in joined and share_an_edge(polys[i], polys[j]):
                joined.add(j)
                pending.append(j)
    if len(joined) != len(polys):
        raise ValueError("the pieces are not joined along edges into one shape")
    loops = union_boundary(polys)
    if len(loops) != 1:
        raise ValueError(f"the outline has {len(loops)} boundary chains (a hole)")
    return simplified(normalized(loops[0]))


def same_shape(p, q):
    """Whether two simple outlines (as `outline` returns them) are the same point set after
    normalisation: both are counter-clockwise, without straight-through vertices and start at
    their least vertex, so they are equal exactly when their vertex lists are."""
    return simplified(normalized(counter_clockwise(p))) == simplified(normalized(counter_clockwise(q)))


def mirrored(poly):
    return simplified(normalized(counter_clockwise([(-x, y) for x, y in poly])))


# ---------------------------------------------------------------------------------------------
# Task 1: Outline Prediction (registry/items/tangram-outline/<name>)
# ---------------------------------------------------------------------------------------------

OUTLINE_ITEMS = ROOT / "registry" / "items" / "tangram-outline"
# An answer costs about 400 fuel a byte (a witness: 0.2 million); these limits hold the largest
# payload (4 MiB) even when it is built to be slow (about 1,500 a byte), so every answer gets a
# verdict with its details.
OUTLINE_LIMITS = {"fuel": 10_000_000_000, "memory_bytes": 67_108_864, "timeout_ms": 5_000}
LETTERS = "ABCD"
# The option order is drawn from this seed: candidates sorted by sha256(seed/item/candidate), so
# it is fixed by the text alone (Python's random module does not promise its shuffles).
SEED = "tangram-outline/1"

# Per base shape, a near miss: one piece moved elsewhere, the pieces still a valid assembly
# (joined along edges, no overlaps), its outline not the truth's.
NEAR_MISSES = {
    "square": ("S2", [(0, 4), (2, 4), (1, 5)],
               "the lower right small triangle moved onto the top edge"),
    "flag": ("S2", [(0, 2), (0, 4), (-1, 3)],
             "the small triangle on the left edge instead of the right"),
    "chair": ("P", [(0, 2), (0, 4), (-1, 3), (-1, 1)], "the parallelogram flipped"),
}


def shape_name(base, turned):
    return f"{base}-turned" if turned else base


def placed(pieces, turned):
    """The pieces' exact polygons, turned if asked (not yet normalised)."""
    f = (lambda p: turn(exact(p))) if turned else exact
    return [[f(p) for p in v] for _, _, v in pieces]


def candidates_for(base, turned, outlines):
    """(key, description, outline) for the truth and three distractors, each different from
    the truth and from each other as point sets (after normalisation)."""
    name = shape_name(base, turned)
    _, _, pieces, _, _ = next(s for s in SHAPES if s[0] == base)
    truth = outlines[name]
    piece, vertices, how = NEAR_MISSES[base]
    pool = [("near-miss", f"one piece moved: {how}", outline(placed(moved(pieces, piece, vertices), turned))),
            ("mirrored", "the true outline mirrored", mirrored(truth))]
    others = sorted((o for o in outlines if o != name),
                    key=lambda o: hashlib.sha256(f"{SEED}/{name}/other/{o}".encode()).hexdigest())
    pool += [(f"other:{o}", f"the outline of another assembly ({o})", outlines[o]) for o in others]
    chosen = [("truth", "the outline of the pieces", truth)]
    for candidate in pool:
        if len(chosen) < len(LETTERS) and not any(same_shape(candidate[2], c[2]) for c in chosen):
            chosen.append(candidate)
    assert len(chosen) == len(LETTERS), name
    chosen.sort(key=lambda c: hashlib.sha256(f"{SEED}/{name}/{c[0]}".encode()).hexdigest())
    return chosen


def candidates_svg(chosen):
    """Four panels labelled A-D, every silhouette at one scale, each with its lower and left
    boundaries on the panel's axes, over a faint unit grid."""
    floats = [[(float(x), float(y)) for x, y in c[2]] for c in chosen]
    extent = max(max(max(x for x, _ in f), max(y for _, y in f)) for f in floats)
    cells = int(-(-extent // 1))
    panel, margin, top = 240, 20, 30
    scale = (panel - 2 * margin) / cells
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * panel}" '
           f'height="{2 * (panel + top)}" viewBox="0 0 {2 * panel} {2 * (panel + top)}" '
           'font-family="sans-serif">',
           f'<rect width="{2 * panel}" height="{2 * (panel + top)}" fill="white"/>']
    for k, (letter, points) in enumerate(zip(LETTERS, floats)):
        x0, y0 = (k % 2) * panel, (k // 2) * (panel + top)
        ox, oy = x0 + margin, y0 + top + panel - margin
        out.append(f'<g id="option-{letter}">')
        out.append(f'<rect x="{x0 + 2}" y="{y0 + 2}" width="{panel - 4}" height="{panel + top - 4}" '
                   'fill="none" stroke="#999" stroke-width="1"/>')
        out.append(f'<text x="{x0 + 12}" y="{y0 + 26}" font-size="22" font-weight="bold">{letter}</text>')
        for i in range(cells + 1):
            g = i * scale
            out.append(f'<line x1="{ox + g:.2f}" y1="{oy:.2f}" x2="{ox + g:.2f}" y2="{oy - cells * scale:.2f}" '
                       'stroke="#e4e4e4" stroke-width="1"/>')
            out.append(f'<line x1="{ox:.2f}" y1="{oy - g:.2f}" x2="{ox + cells * scale:.2f}" y2="{oy - g:.2f}" '
                       'stroke="#e4e4e4" stroke-width="1"/>')
        path = " ".join(f"{ox + x * scale:.2f},{oy - y * scale:.2f}" for x, y in points)
        out.append(f'<polygon points="{path}" fill="#333"/>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def outline_instruction(name, pieces_json):
    rows = ",\n".join("  " + json.dumps(p, ensure_ascii=False) for p in pieces_json)
    spec = f'{{"instance_id": "{name}", "final_state": {{"pieces": [\n{rows}\n]}}}}'
    return (
        "The image (candidates.svg) shows four candidate silhouettes labelled A, B, C and D, drawn "
        "at one common scale, each with its lower boundary on the x-axis and its left boundary on "
        "the y-axis (the faint grid lines are one unit apart). The seven tangram pieces below are "
        "already assembled; their Tangram Construction Expression (TCE) gives each piece's type "
        "and exact vertex coordinates (LaTeX):\n\n"
        f"{spec}\n\n"
        "Which silhouette do the seven pieces form together? Answer with the letter of that "
        "option (A, B, C or D).")


def write_outline_items():
    """The Task 1 items, one per assembly of SHAPES (axis-aligned and turned)."""
    outlines, shapes = {}, {}
    for base, description, pieces, grid_outline, _ in SHAPES:
        for turned in (False, True):
            name = shape_name(base, turned)
            place = placement(grid_outline, turned)
            exact_pieces = [[place(p) for p in v] for _, _, v in pieces]
            truth = outline(exact_pieces)
            # The outline rebuilt from the pieces is the silhouette Task 2 asks for.
            assert same_shape(truth, [place(p) for p in grid_outline]), name
            outlines[name] = truth
            shapes[name] = (base, description, pieces, place, turned)
    for name, (base, description, pieces, place, turned) in shapes.items():
        chosen = candidates_for(base, turned, outlines)
        answer = LETTERS[[c[0] for c in chosen].index("truth")]
        state = json.loads(tce(name, pieces, place))["final_state"]
        item = {
            "instance_id": name,
            "final_state": state,
            "options": list(LETTERS),
            "answer": answer,
            "candidates": [
                {"option": letter, "source": c[1],
                 "outline": {"vertices": vertices_json(c[2]),
                             "edges": [[k, (k + 1) % len(c[2])] for k in range(len(c[2]))]}}
                for letter, c in zip(LETTERS, chosen)],
        }
        wrong = [(letter, c[1]) for letter, c in zip(LETTERS, chosen) if letter != answer]
        counter = [(f"The answer is {letter}.", f"option {letter}: {source}") for letter, source in wrong]
        counter += [
            (f"The answer is {answer}. No, wait: the answer is {wrong[0][0]}.",
             "two different options asserted (invalid)"),
            ("Answer: E", "E is not one of the options A-D (invalid)"),
            ("A careful look at the coordinates shows that the seven pieces form one connected "
             "silhouette.", "prose naming no option; the article 'A' is no answer (invalid)"),
        ]
        write_item(
            OUTLINE_ITEMS, f"tangram-outline/{name}", "tangram-outline", f"The answer is {answer}.",
            counter,
            {"benchmark": "tangram", "type": "construction", "category": "outline",
             "source": "TangramPuzzle Task 1 (Outline Prediction); item generated by "
                       "registry/tools/tangram.py",
             "problem": f"Tangram outline prediction: {description}"
                        + (", turned by 45°" if turned else ""),
             "construction_instruction": outline_instruction(name, state["pieces"]),
             "reference_answer": answer},
            item, OUTLINE_LIMITS, files={"candidates.svg": candidates_svg(chosen)})
        print(f"tangram-outline/{name}: answer {answer}; "
              + ", ".join(f"{letter} = {c[0]}" for letter, c in zip(LETTERS, chosen)))


def main():
    write_task2_items()
    write_outline_items()


def write_task2_items():
    for base, description, pieces, outline, slide in SHAPES:
        for turned in (False, True):
            name = f"{base}-turned" if turned else base
            place = placement(outline, turned)
            item = instance(name, outline, place)
            counter = counterexamples(name, pieces, slide, place)
            if turned:
                counter.append((tce(name, pieces, place, decimals=True),
                                "the surds written as 4-digit decimals (RGE: areas no longer exact)"))
            write_item(
                ITEMS, f"tangram/{name}", "tangram", tce(name, pieces, place), counter,
                {"benchmark": "tangram", "type": "construction",
                 "category": "turned 45°" if turned else "axis-aligned",
                 "source": "TangramPuzzle Task 2 (End-to-End Tangram Solution Generation); "
                           "item generated by registry/tools/tangram.py",
                 "problem": f"Tangram: {description}" + (", turned by 45°" if turned else ""),
                 "construction_instruction": instruction(item)},
                item, LIMITS)
            print(f"tangram/{name}: {len(outline)} outline vertices, {len(counter)} counterexamples")


if __name__ == "__main__":
    main()
