"""SCBench Q52 Enumerate Edges (VGB2): `52.py` (index id 53447799866) over
`data/vgb/topology_edge_enumerate_curated.jsonl`, whose 8 paper rows are rebuilt here from their
generator arguments (VisGeomBench `configs/topology_edge_enumerate_curated.toml` @ 33d3fe4, all 8
rows) by a port of VisGeomBench's `datagen/topology_edge_tasks.py` (@ 0d1e371): the case registry,
the corner/edge reordering, the canonical edge table and the content-hash id. The port reproduces
the three rows readable in the benchmark repository (commit 66a7511) exactly: prompt, ground truth
and id, checked below before anything is written.
"""

import hashlib
import json

from common import ITEMS, SOURCE_REPO, write_item

CANON_CORNERS = ("bottom-left", "bottom-right", "top-right", "top-left")
CANON_EDGES = ("bottom", "right", "top", "left")

# CASE_REGISTRY: canonical corner labels (canonical corner order, first-occurrence 1-based).
CASES = [(1, 1, 1, 1), (1, 1, 1, 2), (1, 1, 2, 1), (1, 1, 2, 2), (1, 1, 2, 3), (1, 2, 1, 1),
         (1, 2, 1, 2), (1, 2, 1, 3), (1, 2, 2, 1), (1, 2, 2, 2), (1, 2, 2, 3), (1, 2, 3, 1),
         (1, 2, 3, 2), (1, 2, 3, 3), (1, 2, 3, 4)]
AMBIGUOUS = {(1, 2, 1, 2), (1, 2, 3, 4)}
THREE_DOMAINS = {(1, 1, 2, 3), (1, 2, 2, 3), (1, 2, 3, 1), (1, 2, 3, 3)}
# QUAD_EDGE_DICT: guaranteed edge pairs in canonical edge indices (0 bottom, 1 right, 2 top, 3 left).
EDGES = {(1, 1, 1, 1): [], (1, 1, 1, 2): [[2, 3]], (1, 1, 2, 1): [[1, 2]], (1, 1, 2, 2): [[1, 3]],
         (1, 2, 1, 1): [[0, 1]], (1, 2, 2, 1): [[0, 2]], (1, 2, 2, 2): [[0, 3]],
         (1, 2, 1, 3): [[0, 1], [2, 3]], (1, 2, 3, 2): [[1, 2], [0, 3]]}

BL, BR, TR, TL = CANON_CORNERS
# datagen_args_grid of the curated config, in row order: (corner_order, edge_order, cases).
ROWS = [
    ((BL, BR, TR, TL), ("bottom", "right", "top", "left"), [0, 1, 2, 3]),
    ((BR, TR, TL, BL), ("right", "top", "left", "bottom"), [5, 6, 7, 8, 9]),
    ((TL, BL, BR, TR), ("top", "left", "bottom", "right"), [12, 14, 1, 2]),
    ((TR, BL, TL, BR), ("left", "bottom", "right", "top"), [0, 3, 5, 7, 9, 12]),
    ((BL, TR, BR, TL), ("bottom", "left", "top", "right"), [1, 2, 6, 8, 14]),
    ((TL, TR, BL, BR), ("right", "bottom", "left", "top"), [3, 7, 12, 14]),
    ((BR, BL, TR, TL), ("top", "right", "bottom", "left"), [0, 1, 5, 6, 8, 9, 12]),
    ((TR, TL, BR, BL), ("left", "top", "right", "bottom"), [2, 3, 7, 9, 14]),
]

# What the benchmark repository's copy (3 rows) holds: id and ground truth.
KNOWN = {0: ("0baaf39c", [[], [[2, 3]], [[1, 2]], [[1, 3]]]),
         1: ("b2795758", [[[0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]),
         2: ("be7f7e63", [[[0, 3], [1, 2]], [], [[0, 1]], [[0, 3]]])}


def first_occurrence(labels):
    seen = {}
    return tuple(seen.setdefault(x, len(seen) + 1) for x in labels)


def record(corner_order, edge_order, cases):
    squares = [tuple(CASES[c][CANON_CORNERS.index(name)] for name in corner_order) for c in cases]
    lines = ["Squares (each tuple lists the four corner labels; integers denote distinct classes):"]
    lines += [str(s) for s in squares]
    lines += ["", f"You are given unit squares with corners labelled in {tuple(corner_order)} order.",
              "Edges are indexed: " + ", ".join(f"{n}={i}" for i, n in enumerate(edge_order)) + ".", "",
              "For each square above (in the same order), list which edges are guaranteed to connect.",
              "Return a list where each element is a list of sorted [i,j] pairs (i < j).",
              "If no edges are deterministically guaranteed (including ambiguous cases), return [] for that square."]
    prompt = "\n".join(lines)
    truth = []
    for s in squares:
        canon = first_occurrence(s[corner_order.index(name)] for name in CANON_CORNERS)
        assert canon not in THREE_DOMAINS
        pairs = [] if canon in AMBIGUOUS else [
            sorted([edge_order.index(CANON_EDGES[i]), edge_order.index(CANON_EDGES[j])]) for i, j in EDGES[canon]]
        truth.append(sorted(pairs))
    args = {"subtask": "enumerate_edges", "corner_order": list(corner_order), "edge_order": list(edge_order),
            "cases": cases}
    content = {"problem_type": "topology_edge_tasks", "datagen_args": args, "prompt": prompt, "ground_truth": truth}
    rid = hashlib.sha1(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:8]
    return {"id": rid, "prompt": prompt, "ground_truth": truth, "squares": [list(s) for s in squares],
            "datagen_args": args}


def generate():
    for sp, (corners, edges, cases) in enumerate(ROWS):
        row = record(corners, edges, cases)
        truth = row["ground_truth"]
        if sp in KNOWN:
            assert (row["id"], truth) == KNOWN[sp], (sp, row["id"])
        answer = lambda e: json.dumps({"edges": e}, separators=(",", ":"))  # noqa: E731
        first = next(i for i, t in enumerate(truth) if t)
        wrong_first = [list(truth[i]) for i in range(len(truth))]
        wrong_first[0] = [] if truth[0] else [[0, 1]]
        reversed_pair = [list(t) for t in truth]
        reversed_pair[first] = [[p[1], p[0]] if k == 0 else p for k, p in enumerate(truth[first])]
        floats = [list(t) for t in truth]
        floats[first] = [[float(p[0]), float(p[1])] for p in truth[first]]
        counter = [
            (answer(wrong_first), "the first square answered wrongly"),
            (answer(truth[:-1]), "one square short"),
            (answer(reversed_pair), f"square {first}'s first pair written (j, i)"),
            (answer(floats), f"square {first}'s pairs written as floats"),
            (answer([[] for _ in truth]), "no guaranteed edges anywhere"),
            ("{'edges': [[[0, 0]]]}", "the schema-minimal 'always wrong' answer"),
        ]
        write_item(
            ITEMS, f"scbench/q52/{sp}", "scbench-q52-enumerate-edges", answer(truth), counter,
            {"benchmark": "scbench", "type": "construction", "category": "axiomatic",
             "source": f"SCBench Q52 VGB2 Topology Edge Tasks: Enumerate Edges, subpass {sp}: {SOURCE_REPO} 52.py, "
                       f"data/vgb/topology_edge_enumerate_curated.jsonl row {sp} (id {row['id']}; rebuilt from "
                       "VisGeomBench configs/topology_edge_enumerate_curated.toml)",
             "problem": f"Guaranteed edge connections of {len(truth)} squares with labelled corners",
             "construction_instruction": row["prompt"] + '\n\nAnswer with JSON {"edges": [[[i, j], ...], ...]}.'},
            {"ground_truth": truth, "squares": row["squares"], "corner_order": list(corners),
             "edge_order": list(edges)})
        print(f"q52/{sp}: {row['id']}, {len(truth)} squares")
