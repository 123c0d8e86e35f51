#!/usr/bin/env python3
"""Runs third-party Python checkers unchanged, natively and in verigate's sandbox.

    python3 registry/python/p3_compat.py puzzles.json [--limit N] [--jobs J] [--fuel F]

`puzzles.json` is the Python Programming Puzzles file (P3, MIT licence:
microsoft/PythonProgrammingPuzzles, `puzzles/puzzles.json`; not bundled).
Each puzzle's `sat` function is checked on two answers: its reference answer
(computed natively from its first solution) and a wrong one derived from it
(a changed string, number, list or flag). The checker is the `sat` source
unchanged plus "read the answer as JSON from stdin, print whether sat holds".

Natively, each check runs in this process (a fresh namespace per check, a
time limit per check). In the sandbox, every check goes through one
`verigate run DRIVER.py --payloads FILE.jsonl` process on the registry's
Python interpreter: the driver executes the checker it is given with the
answer as stdin. The verdicts (`True`, `False`, or the exception's type)
are compared, and each difference is printed with the sandbox's reason.

Needs a release build of verigate (`cargo build --release`) and its registry.
"""

import argparse
import contextlib
import io
import json
import math
import pathlib
import signal
import subprocess
import sys
import tempfile
from typing import List  # noqa: F401  (puzzle signatures use it)

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERIGATE = ROOT / "target" / "release" / "verigate"
PRELUDE = "from typing import List\nimport json, sys\n\n"
EPILOGUE = "\n\nanswer = json.loads(sys.stdin.read())\nprint(sat(answer) is True)\n"
DRIVER = """import io, json, sys
request = json.loads(sys.stdin.read())
sys.stdin = io.StringIO(request["answer"])
exec(compile(request["checker"], "checker.py", "exec"), {"__name__": "__main__"})
"""
NATIVE_SECONDS = 20


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


def with_time_limit(function):
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(NATIVE_SECONDS)
    try:
        return function()
    finally:
        signal.alarm(0)


def reference_answer(puzzle):
    namespace = {}
    exec(puzzle["sol_header"] + "\n" + puzzle["sol_bodies"][0], namespace)
    return with_time_limit(namespace["sol"])


def wrong_answer(answer):
    """An answer near the reference that a checker should (usually) refuse."""
    if isinstance(answer, bool):
        return not answer
    if isinstance(answer, int):
        return answer + 1
    if isinstance(answer, float):
        return answer + 1.0 if math.isfinite(answer) else 0.0
    if isinstance(answer, str):
        return answer + "x" if answer else "x"
    if isinstance(answer, (list, tuple)):
        return list(answer[:-1]) if answer else [0]
    return None


def native_verdict(checker, answer):
    """`True`, `False` or `error: TYPE` of the checker run in this process."""
    out = io.StringIO()
    try:
        code = compile(checker, "checker.py", "exec")
        with contextlib.redirect_stdout(out):
            saved, sys.stdin = sys.stdin, io.StringIO(answer)
            try:
                with_time_limit(lambda: exec(code, {"__name__": "__main__"}))
            finally:
                sys.stdin = saved
    except Timeout:
        return "timeout"
    except BaseException as error:  # what the checker raised is its verdict
        return f"error: {type(error).__name__}"
    return out.getvalue().strip()


def sandbox_verdict(report):
    """The same, from a `verigate run` report; the reason for the record."""
    if report["outcome"] in ("pass", "fail"):
        return report["stdout"].strip(), ""
    if report["outcome"] == "exit_nonzero":
        last = (report["stderr"].strip().splitlines() or [""])[-1]
        kind = last.split(":")[0].split(".")[-1]
        return f"error: {kind}", last
    return report["outcome"], report["message"]


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("puzzles", type=pathlib.Path)
    args.add_argument("--limit", type=int)
    args.add_argument("--jobs", type=int)
    args.add_argument("--fuel", default="200000000000")
    args = args.parse_args()
    puzzles = json.loads(args.puzzles.read_text())[: args.limit]
    checks, skipped = [], []
    for puzzle in puzzles:
        if not puzzle["sol_bodies"]:
            skipped.append(f"{puzzle['name']}: no reference solution in the file")
            continue
        try:
            reference = reference_answer(puzzle)
            answers = [("reference", json.dumps(reference))]
        except BaseException as error:  # the reference itself fails natively
            skipped.append(f"{puzzle['name']}: no reference answer natively ({type(error).__name__})")
            continue
        wrong = wrong_answer(reference)
        if wrong is not None:
            answers.append(("wrong", json.dumps(wrong)))
        checker = PRELUDE + puzzle["sat"] + EPILOGUE
        for kind, answer in answers:
            checks.append((puzzle["name"], kind, checker, answer))

    with tempfile.TemporaryDirectory(prefix="verigate-p3-") as work:
        work = pathlib.Path(work)
        driver = work / "driver.py"
        driver.write_text(DRIVER)
        payloads = work / "payloads.jsonl"
        with payloads.open("w") as f:
            for _, _, checker, answer in checks:
                f.write(json.dumps({"payload": json.dumps({"checker": checker, "answer": answer})}) + "\n")
        command = [str(VERIGATE), "run", str(driver), "--payloads", str(payloads), "--fuel", args.fuel,
                   "--memory-mb", "1024", "--timeout-ms", "300000",
                   "--max-payload-kb", "65536", "--registry", str(ROOT / "registry")]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"verigate run failed: {run.stderr}")
        reports = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(reports) == len(checks), (len(reports), len(checks))

    counts = {"checks": len(checks), "equal": 0, "true_natively": 0, "true_in_sandbox": 0}
    differences = []
    for (name, kind, checker, answer), report in zip(checks, reports):
        native = native_verdict(checker, answer)
        sandbox, reason = sandbox_verdict(report)
        counts["true_natively"] += native == "True"
        counts["true_in_sandbox"] += sandbox == "True"
        if native == sandbox:
            counts["equal"] += 1
        else:
            differences.append(f"{name} ({kind} answer): native {native!r}, sandbox {sandbox!r} {reason[-200:]}")
    print(json.dumps({"puzzles": len(puzzles), **counts, "skipped": len(skipped)}))
    for line in differences + skipped:
        print(line)


if __name__ == "__main__":
    main()
