"""Grader.run and run_module: the verdicts `verigate run` prints, every outcome of a hostile module."""

import json
import subprocess

import pytest

import verigate
from conftest import REGISTRY, verdict, wat

ITEMS = [
    "toy/pythagorean-triple",
    "toy/derangement-4",
    "sphyr/10_random_cell_easy/0",  # a family row: the verifier reads $VERIGATE_ROW
    "sphyr/1_random_row_hard/0",
    "tangram/chair",
]


def cli_run(verigate_bin, target, payload, *flags):
    done = subprocess.run(
        [verigate_bin, "run", target, "--registry", REGISTRY, *flags],
        input=payload.encode() if isinstance(payload, str) else payload,
        capture_output=True,
    )
    return verdict(json.loads(done.stdout))


@pytest.mark.parametrize("item_id", ITEMS)
def test_run_equals_the_cli_run_on_references_and_counterexamples(grader, verigate_bin, item_id):
    item = grader.registry.item(item_id)
    payloads = [item["reference"]] + [c["payload"] for c in item.get("counterexample", [])]
    for payload in payloads:
        assert verdict(grader.run(item_id, payload)) == cli_run(verigate_bin, item_id, payload)
    assert grader.run(item_id, item["reference"])["passed"]


def test_run_takes_bytes_and_refuses_unknown_or_unverified_items(grader):
    reference = grader.registry.item("toy/pythagorean-triple")["reference"]
    assert grader.run("toy/pythagorean-triple", reference.encode())["passed"]
    with pytest.raises(verigate.InputError, match="toy/pythagorean-tripel"):
        grader.run("toy/pythagorean-tripel", reference)
    analysis = next(i for i in grader.registry.items() if grader.registry.item(i).get("module") is None)
    with pytest.raises(verigate.InputError, match="no verifier"):
        grader.run(analysis, "x")
    with pytest.raises(verigate.InputError, match="str or bytes"):
        grader.run("toy/pythagorean-triple", 3)


WRITE = """
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "{text}")
  (func $say (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $setup (i32.store (i32.const 0) (i32.const 16)) (i32.store (i32.const 4) (i32.const {length})))
"""


def module(body, text="True\\n", length=5):
    return "(module" + WRITE.format(text=text, length=length) + body + ")"


HOSTILE = {
    "pass": (module('(func (export "_start") (call $setup) (call $say))'), {}),
    "fail": (module('(func (export "_start") (call $setup) (call $say))', "False\\n", 6), {}),
    "trap": (module('(func (export "_start") unreachable)'), {}),
    "fuel_exhausted": (module('(func (export "_start") (loop $l (br $l)))'), {"fuel": 100_000}),
    "timeout": (module('(func (export "_start") (loop $l (br $l)))'), {"fuel": 10**15, "timeout_ms": 200}),
    "output_overflow": (
        module('(func (export "_start") (call $setup) (loop $l (call $say) (br $l)))'),
        {"max_output_kb": 1},
    ),
    "exit_nonzero": (module('(func (export "_start") (call $proc_exit (i32.const 3)))'), {}),
    "memory_exceeded": ('(module (memory (export "memory") 2000) (func (export "_start")))', {"memory_mb": 16}),
    "invalid_module": (
        '(module (import "env" "escape" (func)) (memory (export "memory") 1) (func (export "_start")))',
        {},
    ),
    "protocol_error": (module('(func (export "_start") (call $setup) (call $say))', "maybe\\n", 6),
                       {"protocol": "verdict-json"}),
}


@pytest.mark.parametrize("outcome", sorted(HOSTILE))
def test_run_module_classifies_every_outcome(tmp_path, outcome):
    text, limits = HOSTILE[outcome]
    path = wat(tmp_path, outcome, text)
    verdict = verigate.run_module(path, "payload", **limits)
    assert verdict["outcome"] == outcome, verdict
    assert verdict["passed"] == (outcome == "pass")


def test_run_module_takes_module_bytes_and_an_item_dir(tmp_path, verigate_bin):
    path = wat(tmp_path, "pass", HOSTILE["pass"][0])
    wasm_path = tmp_path / "garbage.wasm"
    # The CLI's verdict on the same text module is the reference.
    expected = cli_run(verigate_bin, str(path), "payload")
    from_path = verdict(verigate.run_module(path, "payload"))
    assert from_path == expected
    (tmp_path / "item").mkdir()
    assert verigate.run_module(path, b"payload", item_dir=tmp_path / "item")["passed"]
    with pytest.raises(verigate.InputError, match="not a directory"):
        verigate.run_module(path, "payload", item_dir=tmp_path / "missing")
    with pytest.raises(verigate.InputError, match="protocol"):
        verigate.run_module(path, "payload", protocol="yes-no")
    wasm_path.write_bytes(b"\0asm\1\0\0\0garbage")
    assert verigate.run_module(wasm_path.read_bytes(), "p")["outcome"] == "invalid_module"
