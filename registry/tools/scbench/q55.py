"""SCBench Q55 Delaunay Triangulation (VGB6): `55.py` over `data/vgb/delaunay_dataset.jsonl` (25 rows, commit
fefbda7); the copied rows are checked against an exact Delaunay triangulation of the points as shown.
"""

import json

from common import vgb_rows, vgb_item


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


def generate():
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
