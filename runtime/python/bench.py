"""Python-side figures for verigate, each a ratio against a baseline measured in the same run.

    python runtime/python/bench.py [--quick] [--verigate target/release/verigate]

1. Per-call overhead of ``Grader.run`` over the Rust library on a small guest
   (``toy/pythagorean-triple``): p50 of each, same process, same sandbox.
2. Batch throughput of ``Grader.grade`` against ``verigate grade`` (the CLI) on
   the same input: the bundled examples, repeated with fresh sample numbers.
3. ``Grader.run`` against what users do without the package:
   ``subprocess.run(["verigate", "run", ...])`` per item.
4. With ``--ray`` (inside a loopback-only network namespace, as the Ray tests):
   ``verigate.ray.grade`` on a local cluster of 1 and 2 one-CPU worker nodes
   against single-process ``verigate grade -j 1`` on the same input, and the
   fixed cost of a job (a one-line input).

Figures are printed, never asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import verigate

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "registry"
RESPONSES = ROOT / "examples" / "responses.jsonl"
JUDGMENTS = ROOT / "examples" / "judgments.jsonl"
ITEM = "toy/pythagorean-triple"


def p50_us(samples_ns):
    return statistics.median(samples_ns) / 1e3


def per_call(grader, calls, rounds=10):
    """p50 of the library alone and of Grader.run, in alternating blocks so
    that drift in machine load falls on both alike."""
    payload = grader.registry.item(ITEM)["reference"]
    native, python = [], []
    for _ in range(rounds):
        native += grader._bench_native(ITEM, payload, calls // rounds)
        for _ in range(calls // rounds):
            started = time.perf_counter_ns()
            grader.run(ITEM, payload)
            python.append(time.perf_counter_ns() - started)
    return p50_us(native), p50_us(python)


def repeated_examples(path, times):
    lines = [json.loads(line) for line in RESPONSES.read_text().splitlines() if line.strip()]
    with open(path, "w") as out:
        for copy in range(times):
            for line in lines:
                sample = line["sample"] if copy == 0 else f"{line['sample']}-copy{copy}"
                out.write(json.dumps({**line, "sample": sample}) + "\n")
    return len(lines) * times


def throughput(grader, verigate_bin, times, jobs, rounds=2):
    """Lines per second of the CLI and of Grader.grade on the same input,
    the best of `rounds` alternating runs of each."""
    with tempfile.TemporaryDirectory() as tmp:
        responses = Path(tmp) / "responses.jsonl"
        lines = repeated_examples(responses, times)
        records = [json.loads(line) for line in responses.read_text().splitlines()]
        cli, python = 0.0, 0.0
        for _ in range(rounds):
            started = time.perf_counter()
            subprocess.run(
                [verigate_bin, "grade", "--registry", REGISTRY, "--responses", responses,
                 "--out", Path(tmp) / "cli.jsonl", "-j", str(jobs)],
                check=True, stderr=subprocess.DEVNULL,
            )
            cli = max(cli, lines / (time.perf_counter() - started))
            started = time.perf_counter()
            grader.grade(records)
            python = max(python, lines / (time.perf_counter() - started))
    return lines, cli, python


def subprocess_calls(grader, verigate_bin, calls):
    payload = grader.registry.item(ITEM)["reference"]
    spawned = []
    for _ in range(calls):
        started = time.perf_counter_ns()
        subprocess.run(
            [verigate_bin, "run", ITEM, "--registry", REGISTRY],
            input=payload.encode(), capture_output=True, check=True,
        )
        spawned.append(time.perf_counter_ns() - started)
    return p50_us(spawned)


def ray_figures(verigate_bin, times, shard_lines):
    """Rows/s of verigate.ray.grade on 1 and 2 worker nodes, per-worker
    efficiency against one process with one worker, and a job's fixed cost."""
    import ray
    import verigate.ray
    from ray.cluster_utils import Cluster

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        responses = Path(tmp) / "responses.jsonl"
        lines = repeated_examples(responses, times)
        started = time.perf_counter()
        subprocess.run(
            [verigate_bin, "grade", "--registry", REGISTRY, "--responses", responses,
             "--out", Path(tmp) / "single.jsonl", "-j", "1"],
            check=True, stderr=subprocess.DEVNULL,
        )
        single = lines / (time.perf_counter() - started)
        tiny = Path(tmp) / "tiny.jsonl"
        tiny.write_text(responses.read_text().splitlines()[0] + "\n")
        for workers in (1, 2):
            cluster = Cluster(initialize_head=True,
                              head_node_args={"num_cpus": 0, "include_dashboard": False})
            for _ in range(workers):
                cluster.add_node(num_cpus=1)
            ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
            cluster.wait_for_nodes()
            started = time.perf_counter()
            verigate.ray.grade(tiny, Path(tmp) / f"tiny-{workers}.jsonl", registry=REGISTRY)
            fixed = time.perf_counter() - started
            started = time.perf_counter()
            verigate.ray.grade(responses, Path(tmp) / f"ray-{workers}.jsonl", registry=REGISTRY,
                               shard_lines=shard_lines)
            elapsed = time.perf_counter() - started
            ray.shutdown()
            cluster.shutdown()
            same = (Path(tmp) / f"ray-{workers}.jsonl").read_bytes() == (Path(tmp) / "single.jsonl").read_bytes()
            rate = lines / elapsed
            amortised = lines / max(elapsed - fixed, 1e-9)
            rows.append((workers, rate, amortised / (workers * single), fixed, same))
    return lines, single, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls and lines (CI)")
    parser.add_argument("--verigate", default=str(ROOT / "target" / "release" / "verigate"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray", action="store_true",
                        help="also the Ray figures (run inside a loopback-only network namespace)")
    args = parser.parse_args()
    calls, times, spawns = (2000, 2, 10) if args.quick else (20000, 10, 50)
    grader = verigate.Grader(REGISTRY, jobs=args.jobs)
    grader.grade([json.loads(line) for line in RESPONSES.read_text().splitlines()[:5]])  # warm

    native, python = per_call(grader, calls)
    lines, cli, batch = throughput(grader, args.verigate, times, args.jobs)
    spawned = subprocess_calls(grader, args.verigate, spawns)

    print(f"verigate {verigate.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores, jobs={args.jobs}")
    print(f"{'figure':<54} {'value':>14} {'ratio':>9}")
    print(f"{'Grader.run p50, ' + ITEM:<54} {python:>11.1f} us")
    print(f"{'  the Rust library alone, p50 (baseline)':<54} {native:>11.1f} us")
    print(f"{'  overhead of the Python call':<54} {python - native:>11.1f} us {python / native:>8.2f}x")
    print(f"{'Grader.grade, ' + str(lines) + ' example lines':<54} {batch:>9.0f} l/s {batch / cli:>8.2f}x")
    print(f"{'  verigate grade (the CLI, baseline)':<54} {cli:>9.0f} l/s")
    print(f"{'subprocess verigate run per item, p50':<54} {spawned:>11.0f} us "
          f"{spawned / python:>8.0f}x slower than Grader.run")
    if args.ray:
        shard_lines = 100 if args.quick else 500
        lines, single, rows = ray_figures(args.verigate, times, shard_lines)
        print(f"{'verigate grade -j 1, ' + str(lines) + ' lines (baseline)':<54} {single:>9.1f} l/s")
        for workers, rate, efficiency, fixed, same in rows:
            print(f"{f'verigate.ray.grade, {workers} worker node(s), {shard_lines}-line shards':<54} "
                  f"{rate:>9.1f} l/s  per-worker efficiency {efficiency:.2f} (fixed cost removed), "
                  f"fixed cost {fixed:.1f} s, bytes {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
