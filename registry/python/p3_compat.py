#!/usr/bin/env python3
"""Runs third-party Python checkers unchanged, natively and in verigate's sandbox.

    python3 registry/python/p3_compat.py puzzles.json [--limit N] [--mode exec|wrap]

`puzzles.json` is the Python Programming Puzzles file (P3, MIT licence:
microsoft/PythonProgrammingPuzzles, `puzzles/puzzles.json`; not bundled). For
each puzzle the reference answer is computed natively from its first solution
body, then its `sat` function is checked on that answer by a checker script
(the `sat` source unchanged, plus "read the answer as JSON from stdin, print
True when sat holds") run by native CPython and in the sandbox, and the
outcomes are compared.

--mode exec (default): one wrapped module runs each checker script with
`exec`, so a puzzle costs one sandbox run. --mode wrap: each checker script is
wrapped into its own module, as `verigate registry add` does (about 10 s a
puzzle, mostly compiling the module).

Needs `python3 registry/python/build.py` and a release build of verigate.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
from typing import List  # noqa: F401  (puzzle signatures use it)

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERIGATE = ROOT / "target" / "release" / "verigate"
PRELUDE = "from typing import List\nimport json, sys\n\n"
EPILOGUE = "\n\nanswer = json.loads(sys.stdin.read())\nprint(sat(answer) is True)\n"
DRIVER = "import json, sys\nrequest = json.loads(sys.stdin.read())\nsys.stdin = __import__('io').StringIO(request['answer'])\nexec(compile(request['checker'], 'checker.py', 'exec'), {'__name__': '__main__'})\n"
FUEL = "20000000000"


def reference_answer(puzzle):
    namespace = {}
    exec(puzzle["sol_header"] + "\n" + puzzle["sol_bodies"][0], namespace)
    return namespace["sol"]()


def sandbox_run(module, payload, work):
    path = work / "payload"
    path.write_text(payload)
    run = subprocess.run([str(VERIGATE), "run", str(module), "--payload", str(path), "--fuel", FUEL],
                         capture_output=True, text=True)
    report = json.loads(run.stdout)
    return report["stdout"].strip() if report["outcome"] in ("pass", "fail") else report["outcome"], report


def wrap(script_text, work, name):
    script = work / f"{name}.py"
    script.write_text(script_text)
    module = work / f"{name}.wasm"
    subprocess.run([str(VERIGATE), "wrap-python", str(script), "--out", str(module)],
                   check=True, capture_output=True)
    return module


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("puzzles", type=pathlib.Path)
    args.add_argument("--limit", type=int)
    args.add_argument("--mode", choices=["exec", "wrap"], default="exec")
    args = args.parse_args()
    puzzles = json.loads(args.puzzles.read_text())[: args.limit]
    work = pathlib.Path(tempfile.mkdtemp(prefix="verigate-p3-"))
    driver = wrap(DRIVER, work, "driver") if args.mode == "exec" else None
    counts = {"native": 0, "sandbox": 0, "both": 0, "skipped": 0}
    differences = []
    for puzzle in puzzles:
        try:
            answer = json.dumps(reference_answer(puzzle))
        except Exception as error:  # the reference itself fails natively
            counts["skipped"] += 1
            differences.append((puzzle["name"], f"no reference answer: {error!r}", None))
            continue
        checker = PRELUDE + puzzle["sat"] + EPILOGUE
        native = subprocess.run([sys.executable, "-c", checker], input=answer, capture_output=True,
                                text=True, timeout=600).stdout.strip()
        if driver:
            sandbox, report = sandbox_run(driver, json.dumps({"checker": checker, "answer": answer}), work)
        else:
            sandbox, report = sandbox_run(wrap(checker, work, "checker"), answer, work)
        counts["native"] += native == "True"
        counts["sandbox"] += sandbox == "True"
        counts["both"] += native == sandbox == "True"
        if native != sandbox:
            differences.append((puzzle["name"], f"native {native!r}, sandbox {sandbox!r}",
                                report["message"][-300:]))
    print(json.dumps({"puzzles": len(puzzles), "mode": args.mode, **counts}))
    for name, what, message in differences:
        print(f"{name}: {what}" + (f" ({message})" if message else ""))


if __name__ == "__main__":
    main()
