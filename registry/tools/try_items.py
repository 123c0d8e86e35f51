#!/usr/bin/env python3
"""Check draft items against a verifier module under development, before the registry is rebuilt.

    python3 registry/tools/try_items.py MODULE.wasm registry/items/scbench/q8 [--verigate BIN] [-v]
    python3 registry/tools/try_items.py MODULE.wasm --fixtures tests/fixtures/scbench/q8.jsonl

For every item.toml under the given directories: the reference witness must pass (or reach the
item's `reference_score`) and every counterexample must not pass, run by `verigate run` with the item's limits and instance directory
(the registry lock is not consulted, so this works while items and modules are being changed).
With --fixtures, grades each stored real answer of an SCBench agreement fixture file with the
item's instance directory and compares with the stored score (as tests/scbench.rs does).
Prints one line per witness (outcome, score, fuel, message); exits 1 when any check fails.
`registry verify` remains the authority once the registry is rebuilt.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tomllib

LIMIT_FLAGS = {"fuel": "--fuel", "timeout_ms": "--timeout-ms"}


def run(verigate, module, item, item_dir, payload):
    cmd = [verigate, "run", str(module), "--payload", "-", "--no-cache"]
    limits = item.get("limits", {})
    for key, flag in LIMIT_FLAGS.items():
        if key in limits:
            cmd += [flag, str(limits[key])]
    if "memory_bytes" in limits:
        cmd += ["--memory-mb", str(max(1, limits["memory_bytes"] // (1024 * 1024)))]
    if item.get("protocol"):
        cmd += ["--protocol", item["protocol"]]
    if item_dir.is_dir():
        cmd += ["--item-dir", str(item_dir)]
    out = subprocess.run(cmd, input=payload.encode(), capture_output=True)
    if out.returncode == 2:
        sys.exit(f"verigate run failed: {out.stderr.decode()}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("module", type=pathlib.Path)
    ap.add_argument("dirs", nargs="*", type=pathlib.Path)
    ap.add_argument("--fixtures", type=pathlib.Path, action="append", default=[],
                    help="an SCBench agreement fixture file (tests/fixtures/scbench/q<N>.jsonl)")
    ap.add_argument("--verigate", default="target/release/verigate")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every witness, not only failures")
    args = ap.parse_args()
    bad = checked = 0
    for d in args.dirs:
        for toml_path in sorted(d.rglob("item.toml")):
            item = tomllib.loads(toml_path.read_text())
            witnesses = [(item["reference"], True, "reference")] if "reference" in item else []
            witnesses += [(c["payload"], False, c["why"]) for c in item.get("counterexample", [])]
            for payload, must_pass, why in witnesses:
                r = run(args.verigate, args.module, item, toml_path.parent / "instance", payload)
                ok = r["passed"] == must_pass
                if must_pass and "reference_score" in item:
                    ok = r["outcome"] in ("pass", "fail") and r["score"] >= item["reference_score"]
                checked += 1
                bad += not ok
                if args.verbose or not ok:
                    print(f"{'ok  ' if ok else 'FAIL'} {item['id']:<20} {r['outcome']:<15} "
                          f"score={r['score']:<8.4g} fuel={r['fuel_consumed']:<12,} {why[:50]!r}: "
                          f"{(r['message'] or '')[:120]}")
    for path in args.fixtures:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            f = json.loads(line)
            item_dir = pathlib.Path("registry/items/scbench") / f"q{f['task']}" / str(f["subpass"])
            item = tomllib.loads((item_dir / "item.toml").read_text())
            r = run(args.verigate, args.module, item, item_dir / "instance", f["answer"])
            known = f.get("known_difference")
            want = known["verigate_score"] if known else f["score"]
            ok = abs(r["score"] - want) <= (0 if known else f.get("tolerance", 0))
            if f.get("compare_explanation") and not known:
                ok = ok and r["message"] == f["explanation"]
            checked += 1
            bad += not ok
            if args.verbose or not ok:
                print(f"{'ok  ' if ok else 'FAIL'} {path.name}:{number} {item['id']} {f['model']}: stored "
                      f"{f['score']!r} {f['explanation']!r}, verigate {r['score']!r} {r['message']!r}"
                      + (f" (documented: {known['why']})" if known else ""))
    print(f"{checked} witnesses checked, {bad} wrong")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
