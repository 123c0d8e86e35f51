#!/usr/bin/env python3
"""Generate the TangramPuzzle Task 2 registry items (registry/items/tangram/).

No TangramPuzzle data is public, so the items are built here: each target silhouette is an exact
assembly of the seven classic pieces (cut from a 4 x 4 square), optionally turned by 45 degrees so
its coordinates are surds, and placed with its lower and left boundaries on the axes, as the
paper's normalisation does. Coordinates are exact numbers a + b*sqrt(2) written in LaTeX.

For each item: the target outline (vertices and edges) and the seven canonical pieces (scattered,
the TCE `initial_state`) in instance/instance.json; the assembly as the reference witness; and
realistic failures as counterexamples: a stretched piece, an overlap, a missing piece, a swapped
type, a piece slid out of place (valid, not the target), decimal approximations, prose only.
`verigate registry verify` checks the witnesses against the `tangram` verifier.

Usage: python3 registry/tools/tangram.py   (rewrites registry/items/tangram/<name>)
"""

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

    def __eq__(self, o):
        return (self.a, self.b) == (o.a, o.b)

    def sign(self):
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        return sa if self.a * self.a > 2 * self.b * self.b else sb

    def __lt__(self, o):
        return (self - o).sign() < 0

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


def main():
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
