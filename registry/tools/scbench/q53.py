"""SCBench Q53 Classify Behaviour (VGB3): `53.py` over `topology_edge_classify_curated.jsonl` (13 rows,
commit 99712ef). Prompts rebuilt from the dataset's templates.
"""

import json

from common import vgb_rows, vgb_item


CLASSIFY_PROMPT = """Squares (each tuple lists the four corner labels; integers denote distinct classes):
{squares}

You are given unit squares with corners labelled in ({order}) order.

Classify each square's topological behaviour (in the same order) as one of: 'known behaviour', \
'three domains meeting', or 'ambiguous'.
Definitions: 'known behaviour' = deterministic edge connections can be made; 'three domains meeting' = \
deterministic edge connections where three distinct classes meet at a point; 'ambiguous' = multiple \
valid topologies could exist.
Return a list of exact label strings."""


def generate():
    for sp, row in enumerate(vgb_rows("topology_edge_classify_curated.jsonl")):
        truth, order = row["ground_truth"], row["datagen_args"]["corner_order"]
        squares = "\n".join("(" + ", ".join(str(c) for c in sq) + ")" for sq in row["squares"])
        prompt = CLASSIFY_PROMPT.format(squares=squares, order=", ".join(f"'{c}'" for c in order))
        answer = lambda labels: json.dumps({"labels": labels}, separators=(",", ":"))  # noqa: E731
        other = {"known behaviour": "ambiguous", "ambiguous": "three domains meeting",
                 "three domains meeting": "known behaviour"}
        counter = [
            (answer([other[truth[0]]] + truth[1:]), "the first square misclassified"),
            (answer(truth[:-1]), "one label short"),
            (answer([truth[0].capitalize()] + truth[1:]), "a label not written exactly"),
            (answer(["known behaviour"] * len(truth)), "every square called 'known behaviour'")
            if set(truth) != {"known behaviour"} else
            (answer(["ambiguous"] * len(truth)), "every square called 'ambiguous'"),
        ]
        vgb_item(53, sp, "scbench-q53-classify-behaviour", "Classify Behaviour (VGB3)", row,
                 answer(truth), counter, f"Classify the topological behaviour of {len(truth)} squares",
                 prompt + "\n\nAnswer with JSON {\"labels\": [...]}.",
                 {"ground_truth": truth, "squares": row["squares"], "corner_order": order})
        print(f"q53/{sp}: {len(truth)} squares")
