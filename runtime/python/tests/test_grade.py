"""Grader.grade / grade_iter / grade_file equal the CLI's result lines and bytes."""

import itertools
import json

import pytest

import verigate
from conftest import JUDGMENTS, REGISTRY, RESPONSES


def test_grade_equals_the_cli_lines_on_every_bundled_benchmark(grader, records, judgments, cli_lines):
    results = grader.grade(records, judgments)
    assert results == cli_lines
    assert {r["benchmark"] for r in results} >= {"combench", "scbench", "sphyr", "tangram"}


def test_json_text_records_grade_like_dicts(grader, records, cli_lines):
    lines = [json.dumps(r) for r in records[:40]]
    assert grader.grade(lines) == grader.grade(records[:40])


def test_grade_iter_streams_the_same_results(grader, records, judgments, cli_lines):
    assert list(grader.grade_iter(iter(records), iter(judgments))) == cli_lines


def test_an_abandoned_grade_iter_stops_reading_an_endless_input(grader, records):
    endless = ({**records[i % 40], "sample": i} for i in itertools.count())
    first = list(itertools.islice(grader.grade_iter(endless), 25))
    assert [r["sample"] for r in first] == list(range(25))


def test_grade_file_writes_the_cli_bytes(grader, cli_results, tmp_path):
    out = tmp_path / "results.jsonl"
    summary = grader.grade_file(RESPONSES, out, judgments=JUDGMENTS)
    assert out.read_bytes() == cli_results
    assert summary["graded"] == len(cli_results.splitlines())
    assert summary["bad_lines"] == 0 and summary["resumed"] == 0


def test_grade_file_resumes_an_interrupted_run(grader, cli_results, tmp_path):
    out = tmp_path / "results.jsonl"
    lines = cli_results.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:300]) + lines[300][:17])  # killed mid-line
    summary = grader.grade_file(RESPONSES, out, judgments=JUDGMENTS, resume=True)
    assert out.read_bytes() == cli_results
    assert summary["resumed"] == 300 and summary["dropped_bytes"] == 17


def test_grade_file_never_overwrites_an_input(grader, tmp_path):
    copy = tmp_path / "responses.jsonl"
    copy.write_bytes(RESPONSES.read_bytes())
    with pytest.raises(verigate.HostError, match="would be overwritten"):
        grader.grade_file(copy, copy)
    assert copy.read_bytes() == RESPONSES.read_bytes()


def test_bad_records_are_reported_and_the_good_ones_graded(grader, records):
    good = records[:6]
    batch = [
        good[0],
        {"id": "toy/pythagoreantriple", "sample": 0, "response": "x"},  # unknown id
        good[1],
        {"id": "toy/pythagorean-triple", "sample": 0},  # no response
        good[2],
        {"id": "toy/pythagorean-triple", "sample": object(), "response": "x"},  # not JSON
        "{not json",
        good[3],
    ]
    with pytest.raises(verigate.InputError) as raised:
        grader.grade(batch)
    error = raised.value
    positions = [(source, index) for source, index, _ in error.errors]
    assert positions == [("records", 1), ("records", 3), ("records", 5), ("records", 6)]
    messages = [message for _, _, message in error.errors]
    assert "field `id`" in messages[0] and "toy/pythagorean-triple" in messages[0]
    assert "response" in messages[1]
    assert "records[1]" in str(error)
    expected = grader.grade([good[0], good[1], good[2], good[3]])
    assert [r for r in error.results if r is not None] == expected
    assert [r is None for r in error.results] == [False, True, False, True, False, True, True, False]


def test_bad_judgments_name_their_index(grader, records):
    with pytest.raises(verigate.InputError) as raised:
        grader.grade(records[:3], [{"id": records[0]["id"], "sample": 0, "proof_score": 5}])
    assert raised.value.errors[0][:2] == ("judgments", 0)
    assert len(raised.value.results) == 3


def test_a_grader_accepts_a_path_and_validates_jobs():
    assert verigate.Grader(str(REGISTRY), jobs=1).jobs == 1
    with pytest.raises(verigate.InputError, match="at least one worker"):
        verigate.Grader(REGISTRY, jobs=0)


def test_a_missing_registry_is_a_registry_error(tmp_path):
    with pytest.raises(verigate.RegistryError):
        verigate.Registry(tmp_path / "nowhere")
    assert issubclass(verigate.RegistryError, verigate.VerigateError)
    assert issubclass(verigate.InputError, verigate.VerigateError)
    assert issubclass(verigate.HostError, verigate.VerigateError)


def test_registry_lists_items_with_their_fields():
    registry = verigate.Registry(REGISTRY)
    assert "toy/pythagorean-triple" in registry
    assert len(registry) == len(registry.items())
    item = registry.item("toy/pythagorean-triple")
    assert item["id"] == "toy/pythagorean-triple" and item["reference"]
    with pytest.raises(verigate.InputError):
        registry.item("toy/none")


def test_report_equals_the_cli_report(verigate_bin, cli_results, cli_lines, tmp_path):
    import subprocess

    path = tmp_path / "results.jsonl"
    path.write_bytes(cli_results)
    printed = subprocess.run(
        [verigate_bin, "report", path, "--format", "json", "--registry", REGISTRY],
        check=True, capture_output=True,
    ).stdout
    expected = json.loads(printed)
    assert verigate.report(cli_lines, registry=REGISTRY) == expected
    assert verigate.report(path, registry=REGISTRY) == expected
    assert verigate.report(str(path), registry=verigate.Registry(REGISTRY)) == expected
