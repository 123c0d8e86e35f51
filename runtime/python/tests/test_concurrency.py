"""Threads share one grader; the GIL is released while verifiers run; fork() gets a fresh engine."""

import multiprocessing
import os
import threading

import verigate
from conftest import verdict, wat
from test_run import HOSTILE


def test_threads_sharing_one_grader_get_the_cli_results(grader, records, judgments, cli_lines):
    results = [None] * 4

    def work(slot):
        results[slot] = grader.grade(records, judgments)

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == cli_lines for result in results)


def test_python_runs_while_a_verifier_runs(tmp_path):
    spin = wat(tmp_path, "spin", HOSTILE["timeout"][0])
    verigate.run_module(spin, "p", fuel=10**15, timeout_ms=10)  # compiled before timing
    running = threading.Event()
    finished = threading.Event()
    ticks_while_running = 0

    def verify():
        running.set()
        verigate.run_module(spin, "p", fuel=10**15, timeout_ms=1500)
        finished.set()

    thread = threading.Thread(target=verify)
    thread.start()
    running.wait()
    while not finished.is_set():
        ticks_while_running += 1
    thread.join()
    # With the GIL held for the whole run this loop could not have spun.
    assert ticks_while_running > 1000


def _grade_in_child(args):
    registry, records = args
    return verigate.Grader(registry, jobs=2).grade(records)


def test_a_forked_child_rebuilds_the_engine_and_keeps_deadlines(grader, records, tmp_path):
    spin = wat(tmp_path, "spin", HOSTILE["timeout"][0])
    assert verigate.run_module(spin, "p", fuel=10**15, timeout_ms=100)["outcome"] == "timeout"
    expected = grader.grade(records[:30])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's epoch thread is gone
        try:
            ok = grader.grade(records[:30]) == expected
            ok = ok and verigate.run_module(spin, "p", fuel=10**15, timeout_ms=100)["outcome"] == "timeout"
            os.write(write, b"ok" if ok else b"differs")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.waitpid(pid, 0)
    assert answer == b"ok"


_inherited = None


def _run_inherited(item_id, payload):
    return _inherited.run(item_id, payload)


def test_fork_pool_workers_use_the_grader_they_inherited(grader):
    global _inherited
    _inherited = grader
    calls = [("toy/pythagorean-triple", "[3, 4, 5]"), ("toy/pythagorean-triple", "[1, 2, 3]")]
    expected = [verdict(grader.run(*call)) for call in calls]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert [verdict(r) for r in pool.starmap(_run_inherited, calls)] == expected


def test_a_grader_pickles_to_one_on_the_same_registry(grader, records):
    import pickle

    copy = pickle.loads(pickle.dumps(grader))
    assert copy.jobs == grader.jobs and copy.registry.digest == grader.registry.digest
    assert copy.grade(records[:20]) == grader.grade(records[:20])
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.starmap(copy.run, [("toy/pythagorean-triple", "[3, 4, 5]")])[0]["passed"]
