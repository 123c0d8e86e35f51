"""What the SCBench item generators share: paths, the source repository, VisGeomBench rows."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ITEMS = ROOT / "registry" / "items" / "scbench"
DATA = ROOT / "registry" / "tools" / "data" / "scbench"
SOURCE_REPO = "ashleyharris-maptek-com-au/SpatialCompetenceBenchmark"

sys.path.insert(0, str(ROOT / "registry" / "tools"))
from itemfiles import write_item  # noqa: E402


def vgb_rows(name):
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


def vgb_item(q, sp, module, title, row, answer, counter, problem, prompt, instance):
    write_item(
        ITEMS, f"scbench/q{q}/{sp}", module, answer, counter,
        {"benchmark": "scbench", "type": "construction", "category": "axiomatic",
         "source": f"SCBench Q{q} {title}, subpass {sp}: {SOURCE_REPO} {q}.py, data/vgb row {sp} "
                   f"(id {row['id']})",
         "problem": problem, "construction_instruction": prompt},
        instance)
