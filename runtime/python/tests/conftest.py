"""Shared fixtures: the checkout's registry and examples, the CLI's own output on them."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import verigate

ROOT = Path(__file__).resolve().parents[3]
REGISTRY = ROOT / "registry"
RESPONSES = ROOT / "examples" / "responses.jsonl"
JUDGMENTS = ROOT / "examples" / "judgments.jsonl"


def read_jsonl(path):
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def verigate_bin():
    """The `verigate` binary built from this checkout ($VERIGATE_BIN, else target/release)."""
    path = Path(os.environ.get("VERIGATE_BIN", ROOT / "target" / "release" / "verigate"))
    if not path.is_file():
        pytest.skip(f"no verigate binary at {path}: build it (cargo build --release) or set VERIGATE_BIN")
    return path


@pytest.fixture(scope="session")
def grader():
    return verigate.Grader(REGISTRY, jobs=2)


@pytest.fixture(scope="session")
def records():
    return read_jsonl(RESPONSES)


@pytest.fixture(scope="session")
def judgments():
    return read_jsonl(JUDGMENTS)


@pytest.fixture(scope="session")
def cli_results(verigate_bin, tmp_path_factory):
    """The bytes `verigate grade` writes for the bundled example benchmark."""
    out = tmp_path_factory.mktemp("cli") / "results.jsonl"
    subprocess.run(
        [verigate_bin, "grade", "--registry", REGISTRY, "--responses", RESPONSES,
         "--judgments", JUDGMENTS, "--out", out, "-j", "2"],
        check=True, stderr=subprocess.DEVNULL,
    )
    return out.read_bytes()


@pytest.fixture(scope="session")
def cli_lines(cli_results):
    return [json.loads(line) for line in cli_results.decode().splitlines()]


def wat(tmp_path, name, text):
    """A module file in the WebAssembly text format."""
    path = tmp_path / f"{name}.wat"
    path.write_text(text)
    return path


def verdict(report):
    """A run report without its wall-clock time, the one field that differs between runs."""
    return {k: v for k, v in report.items() if k != "wall_ms"}
