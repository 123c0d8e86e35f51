#!/usr/bin/env python3
"""Regenerates the bundled example benchmark from the registry's items.

    python3 examples/generate.py

Writes examples/responses.jsonl and examples/judgments.jsonl: four samples per
registry item (SCBench: see below), built deterministically from each item's reference witness and
counterexamples, so that `verigate grade` (no arguments) exercises every path:
accepted and rejected constructions, each extraction failure, gated proofs,
missing and unparsable judgments; for SPhyR rows (item families), an exact
grid, one masked cell wrong, a code-fenced grid and a missing last row. These
responses are stand-ins for model output; the judgments stand in for a proof
judge's verdicts. SCBench items get their reference witness (sample
"reference") and every real model answer the agreement fixtures hold for them
(tests/fixtures/scbench/; sample = the paper run, e.g. "gpt-5.2 HR" for
gpt-5.2-HighReasoning), so the per-task table shows real runs.
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
    """(response, judgment) for each sample of a non-ComBench item: raw payloads, the reference
    first, then counterexamples starting at a different one for each item (so that a benchmark's
    items together show all of them)."""
    wrong = [c["payload"] for c in item.get("counterexample", [])]
    if not wrong:
        return [(item["reference"], None)] * SAMPLES
    return [(item["reference"], None)] + [(wrong[(index + s) % len(wrong)], None)
                                          for s in range(SAMPLES - 1)]


def field_text(value):
    """A row field as a payload, as the registry renders witnesses: a grid of
    cells is one line per row, cells separated by spaces; a string is itself."""
    if isinstance(value, list) and all(isinstance(r, list) for r in value):
        return "\n".join(" ".join(str(c) for c in row) for row in value)
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def run_name(model):
    """A paper run's short name: claude-sonnet-4-5-HighReasoning -> "claude-sonnet-4-5 HR"."""
    for long, short in [("-HighReasoning", " HR"), ("-Reasoning-Tools", " RT")]:
        if model.endswith(long):
            return model[: -len(long)] + short
    return model


def scbench_answers():
    """Real answers from the SCBench agreement fixtures: item id -> [(run, answer)]."""
    answers = {}
    for path in sorted((ROOT / "tests" / "fixtures" / "scbench").glob("q*.jsonl")):
        for line in path.read_text().splitlines():
            f = json.loads(line)
            if f["answer"].strip():
                item = f"scbench/q{f['task']}/{f['subpass']}"
                answers.setdefault(item, []).append((run_name(f["model"]), f["answer"]))
    return answers


def scbench_samples(item, real):
    """(sample, response) pairs of an SCBench item: its reference and the real answers."""
    return [("reference", item["reference"])] + sorted(real.get(item["id"], []))


def family_items(path):
    """The items of an item family (family.toml + rows.jsonl), with their row."""
    family = tomllib.loads(path.read_text())
    witnesses = family["witnesses"]
    for line in (path.parent / "rows.jsonl").read_text().splitlines():
        row = json.loads(line)
        reference = field_text(row[witnesses["reference"]])
        wrong = [field_text(row[c["field"]]) for c in witnesses.get("counterexample", [])]
        yield {
            "id": f"{family['family']}/{row[family['key']]}",
            "metadata": family["metadata"],
            "reference": reference,
            "counterexample": [{"payload": w} for w in wrong if w != reference],
            "row": row,
        }


def sphyr_samples(index, item):
    """Realistic SPhyR outputs: exact, one masked cell wrong, wrapped in a code
    fence (the card's scorer then misaligns every row), and a missing last row
    (zipped away: faithful exact match, strict rejection)."""
    row = item["row"]
    masked = [(r, c) for r, line in enumerate(row["input_grid"]) for c, cell in enumerate(line) if cell == "V"]
    wrong = [list(line) for line in row["ground_truth"]]
    if masked:
        r, c = masked[index % len(masked)]
        flip = {"0": "1", "1": "0"}
        wrong[r][c] = flip.get(wrong[r][c], "0.5" if wrong[r][c] != "0.5" else "0.0")
    reference = item["reference"]
    samples = [
        reference,
        field_text(wrong),
        f"```\n{reference}\n```",
        "\n".join(reference.splitlines()[:-1]),
    ]
    return [(text, None) for text in samples]


def main():
    items = sorted(
        [tomllib.loads(p.read_text()) for p in ITEMS.glob("**/item.toml")]
        + [item for p in ITEMS.glob("**/family.toml") for item in family_items(p)],
        key=lambda item: item["id"],
    )
    responses, judgments = [], []
    counters = {}
    real = scbench_answers()
    for item in items:
        meta = item["metadata"]
        if meta["benchmark"] == "scbench":
            responses += [{"id": item["id"], "sample": sample, "response": response}
                          for sample, response in scbench_samples(item, real)]
            continue
        if meta["benchmark"] == "sphyr":
            make = sphyr_samples
        elif meta["benchmark"] != "combench":
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
    for name, lines in [("responses.jsonl", responses), ("judgments.jsonl", judgments)]:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (ROOT / "examples" / name).write_text(text)
        print(f"examples/{name}: {len(lines)} lines")


if __name__ == "__main__":
    main()
