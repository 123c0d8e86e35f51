#!/usr/bin/env python3
"""Regenerates the bundled example benchmark from the registry's items.

    python3 examples/generate.py

Writes examples/responses.jsonl and examples/judgments.jsonl: four samples per
registry item, built deterministically from each item's reference witness and
counterexamples, so that `verigate grade` (no arguments) exercises every path:
accepted and rejected constructions, each extraction failure, gated proofs,
missing and unparsable judgments. The responses are stand-ins for model
output; the judgments stand in for a proof judge's verdicts. Hand-written
response lines in examples/extra/*.jsonl (realistic answers: partial,
malformed, wrapped in prose) are appended as they are.
"""

import json
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
ITEMS = ROOT / "registry" / "items"
SAMPLES = 4


# The Question 2 section of a construction-centric response, by style: a
# well-formed block, the same with odd spacing and case, or one of the flaws
# the extraction rules catch.
SECTION_2 = {
    "ok": "The construction:\n<construct>\n{payload}\n</construct>\n",
    "upper": "<CONSTRUCT>{payload}</Construct>\nThis satisfies every condition.\n",
    "missing_construct": "The construction is described in the proof above.\n",
    "multiple_constructs": "<construct>{payload}</construct>\nOr:\n<construct>{payload}</construct>\n",
    "malformed_construct": "<construct>\n{payload}\n",
}


def combench_construction(proof, payload, style):
    """A construction-centric response; `style` picks a format (or a flaw)."""
    if style == "bad_sections":
        return f"## Solution\n{proof}\n<construct>{payload}</construct>\n"
    section_2 = SECTION_2[style].format(payload=payload)
    return f"## Solution to Question 1\n{proof}\n\n## Solution to Question 2\n{section_2}"


FLAWS = ["missing_construct", "multiple_constructs", "malformed_construct", "bad_sections"]


def construction_samples(index, item):
    """(response, judgment) for each sample of a construction-centric ComBench item."""
    proof = item["metadata"].get("reference_solution", "").strip() or "See the construction."
    reference = item["reference"].strip()
    wrong = [c["payload"].strip() for c in item.get("counterexample", [])]
    flaw = FLAWS[index % len(FLAWS)]
    return [
        # A full proof and an accepted witness: 7 stays 7.
        (combench_construction(proof, reference, "ok"), {"proof_score": 7}),
        # A full proof with a plausible but wrong witness: 7 is gated to 6.
        (
            combench_construction(proof, wrong[0], "ok"),
            {"judge_output": "Complete and rigorous.\n<points>7 out of 7</points>"},
        ),
        # A format failure: no verifier run; the proof is judged if the sections parse.
        (combench_construction(proof, reference, flaw), {"proof_score": 6}),
        # Alternating: an accepted witness with an almost-complete proof, or a
        # wrong witness with partial progress and an unparsable judge output.
        (combench_construction(proof, reference, "upper"), {"proof_score": 6})
        if index % 2 == 0
        else (
            combench_construction(proof, wrong[-1], "ok"),
            {"judge_output": "Partial progress; I would give 1 or 6 points."},
        ),
    ]


def analysis_samples(index, item):
    """(response, judgment) for each sample of an analysis-centric ComBench item."""
    proof = item["metadata"].get("reference_solution", "").strip() or "Proof."
    scores = [7, 6, 1, 0] if index % 4 != 3 else [7, 7, 7, 7]  # one in four solved every time
    samples = [(f"## Solution\n{proof}\n", {"proof_score": scores[(index + s) % 4]}) for s in range(SAMPLES)]
    if index % 3 == 1:
        samples[3] = ("   \n", {"proof_score": 0})  # empty: bad_sections, never judged
    if index % 3 == 2:
        samples[2] = (samples[2][0], None)  # the judge never answered
    return samples


def raw_samples(index, item):
    """(response, judgment) for each sample of a non-ComBench item: raw payloads."""
    payloads = [item["reference"]] + [c["payload"] for c in item.get("counterexample", [])]
    return [(payloads[s % len(payloads)], None) for s in range(SAMPLES)]


def main():
    items = sorted(
        (tomllib.loads(p.read_text()) for p in ITEMS.glob("**/item.toml")),
        key=lambda item: item["id"],
    )
    responses, judgments = [], []
    counters = {}
    for item in items:
        meta = item["metadata"]
        if meta["benchmark"] != "combench":
            make = raw_samples
        elif meta["type"] == "analysis":
            make = analysis_samples
        else:
            make = construction_samples
        index = counters.setdefault(make.__name__, 0)
        counters[make.__name__] += 1
        for sample, (response, judgment) in enumerate(make(index, item)):
            responses.append({"id": item["id"], "sample": sample, "response": response})
            if judgment is not None:
                judgments.append({"id": item["id"], "sample": sample, **judgment})
    for extra in sorted((ROOT / "examples" / "extra").glob("*.jsonl")):
        responses.extend(json.loads(line) for line in extra.read_text().splitlines() if line.strip())
    for name, lines in [("responses.jsonl", responses), ("judgments.jsonl", judgments)]:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (ROOT / "examples" / name).write_text(text)
        print(f"examples/{name}: {len(lines)} lines")


if __name__ == "__main__":
    main()
