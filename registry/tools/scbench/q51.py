"""SCBench Q51 Topology Enumeration (VGB1): `51.py` over `data/vgb/topology_enumeration_curated.jsonl`
(10 rows, commit 60e6f99). Prompts rebuilt from the dataset's templates.
"""

import json

from common import vgb_rows, vgb_item


ENUMERATION_PROMPT = """You are given a unit square with corners ordered ({order}). Each corner is labeled \
from {{0, 1, 2...}}. Boundaries inside may be any continuous curves; only corner labels are observed.

Assume exactly {n} distinct classes occur anywhere in or on the square.

List all corner-label configurations (4-tuples, in the order above) that are sufficient to guarantee \
that {goal}. Canonicalisation: relabel by first occurrence (scan left-to-right; first new label -> 0, \
next -> 1, ...). Treat any label renamings as identical; list each equivalence class once.

Strict output: a Python-style list of 4-tuples only."""


def generate():
    for sp, row in enumerate(vgb_rows("topology_enumeration_curated.jsonl")):
        truth, args = row["ground_truth"], row["datagen_args"]
        n = args["n_classes"]
        goal = ("2 distinct classes meet somewhere inside the square" if n == 2
                else "3 distinct classes meet at some point strictly inside the square")
        prompt = ENUMERATION_PROMPT.format(order=", ".join(args["corner_order"]), n=n, goal=goal)
        answer = lambda configs: json.dumps({"configs": configs}, separators=(",", ":"))  # noqa: E731
        shifted = [[2 * x for x in t] for t in truth]
        counter = [
            (answer(truth[1:]), "one configuration left out"),
            (answer(truth[:-1] + [truth[0]]), "one configuration listed twice instead of another"),
            (answer(shifted), "the right configurations with other label values"),
            (answer(truth[:-1] + [[0, 0, 0, 0]]), "a constant square instead of a configuration"),
            ("{'configs': [[0, 0, 0, 0]], 'reasoning': ''}", "the schema-minimal 'always wrong' answer"),
        ]
        vgb_item(51, sp, "scbench-q51-topology-enumeration", "Topology Enumeration (VGB1)", row,
                 answer(truth), counter, f"Corner configurations guaranteeing {goal} ({n} classes)",
                 prompt + "\n\nAnswer with JSON {\"configs\": [[a, b, c, d], ...]}.",
                 {"ground_truth": truth, "n_classes": n, "corner_order": args["corner_order"]})
        print(f"q51/{sp}: {n} classes, {len(truth)} configurations")
