"""SCBench Q56 Shikaku Rectangles (VGB7): `56.py` over `data/vgb/shikaku_curated.jsonl` (6 rows, commit 2b50104),
whose `id`, `ground_truth` and `puzzle` are copied in registry/tools/data/scbench/shikaku_curated.jsonl.
Reference witnesses are the dataset's ground truth.
"""

import json

from common import DATA, ITEMS, SOURCE_REPO, write_item


SHIKAKU_PROMPT = """Solve the Shikaku puzzle on a {h}×{w} grid.
Cells contain numbers indicating the area of the rectangle that must cover them;
all blank cells are denoted by 0.
Grid (rows listed top to bottom, values space-separated):
{grid}

Return the solution as a Python list of bounding boxes.
Each rectangle must be [left_col, top_row, right_col, bottom_row] using 0-indexed inclusive coordinates.
Rectangles must exactly partition the grid and each must contain exactly one clue equal to its area."""


def rectangles_answer(boxes):
    return json.dumps({"rectangles": boxes}, separators=(",", ":"))


def generate():
    rows = (DATA / "shikaku_curated.jsonl").read_text().splitlines()
    for sp, line in enumerate(rows):
        row = json.loads(line)
        puzzle, truth = row["puzzle"], row["ground_truth"]
        w, h = puzzle["width"], puzzle["height"]
        grid = "\n".join(" ".join(str(n) for n in r) for r in puzzle["numbers"])
        # Two neighbouring boxes merged into their bounding box (two clues in one box).
        a, b = truth[0], truth[1]
        merged = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
        counter = [
            (rectangles_answer(truth[1:]), "one rectangle left out: its cells are not covered"),
            (rectangles_answer([merged] + truth[2:]), "two rectangles merged into their bounding box"),
            (rectangles_answer(truth + [truth[0]]), "a rectangle listed twice: cells covered twice"),
            (rectangles_answer([[t[2], t[1], t[0], t[3]] for t in truth[:1]] + truth[1:])
             if truth[0][0] != truth[0][2] else rectangles_answer([[1, 0, 0, 0]] + truth[1:]),
             "left and right swapped in one rectangle"),
            ("{'rectangles': [[0, 0, 0, 0]], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        write_item(
            ITEMS, f"scbench/q56/{sp}", "scbench-q56-shikaku", rectangles_answer(truth), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q56 Shikaku Rectangles (VGB7), subpass {sp}: {SOURCE_REPO} 56.py, "
                       f"data/vgb/shikaku_curated.jsonl row {sp} (id {row['id']})",
             "problem": f"Shikaku on a {w}x{h} grid ({row['metadata']['difficulty']})",
             "construction_instruction": SHIKAKU_PROMPT.format(h=h, w=w, grid=grid) +
             "\n\nAnswer with JSON {\"rectangles\": [[left_col, top_row, right_col, bottom_row], ...]}."},
            {"puzzle": puzzle, "ground_truth": truth})
        print(f"q56/{sp}: {w}x{h}, {len(truth)} rectangles")
