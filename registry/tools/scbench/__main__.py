"""Generate the SCBench registry items (registry/items/scbench/q<N>/<subpass>) from the original
task parameters and data files of ashleyharris-maptek-com-au/SpatialCompetenceBenchmark.

One module per task (`q<N>.py`, each with a `generate()` that rewrites that task's items and says
where its parameters and data come from); the items are reproducible without the repository.

Usage: python3 registry/tools/scbench [q<N> ...]    (no argument: every task)
"""

import importlib
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

TASKS = sorted((p.stem for p in HERE.glob("q*.py")), key=lambda name: int(name[1:]))


def main(names):
    unknown = [n for n in names if n not in TASKS]
    if unknown:
        sys.exit(f"unknown task(s) {', '.join(unknown)}; known: {', '.join(TASKS)}")
    for name in names or TASKS:
        importlib.import_module(name).generate()


if __name__ == "__main__":
    main(sys.argv[1:])
