#!/usr/bin/env python3
"""Compare two `verigate grade` result files line by line, ignoring the
provenance fields that name what was rebuilt (by default `module_sha256` and
`registry_digest`): every other field of every line must be equal.

Usage: python3 tests/compare_results.py BEFORE.jsonl AFTER.jsonl [--ignore FIELD ...]
Exit status 0 when the files agree, 1 (with the differing lines listed) otherwise.
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument(
        "--ignore",
        action="append",
        default=None,
        help="field to ignore (repeatable; default: module_sha256 and registry_digest)",
    )
    args = parser.parse_args()
    ignored = set(args.ignore or ["module_sha256", "registry_digest"])
    with open(args.before, encoding="utf-8") as f:
        before = f.read().splitlines()
    with open(args.after, encoding="utf-8") as f:
        after = f.read().splitlines()
    differing = []
    for number, (a, b) in enumerate(zip(before, after), start=1):
        x, y = json.loads(a), json.loads(b)
        for record in (x, y):
            for field in ignored:
                record.pop(field, None)
        if x != y:
            fields = sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k))
            differing.append(f"line {number} ({x.get('id')} sample {x.get('sample')}): {', '.join(fields)}")
    if len(before) != len(after):
        differing.append(f"{len(before)} lines before, {len(after)} after")
    for line in differing:
        print(line)
    print(
        f"{min(len(before), len(after)) - len(differing)}/{max(len(before), len(after))} lines equal "
        f"(ignoring {', '.join(sorted(ignored))})"
    )
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
