"""The Hugging Face datasets and verl adapters."""

import json

import pytest

import verigate
import verigate.hf
import verigate.verl
from conftest import REGISTRY


def test_grade_dataset_adds_the_result_columns(grader, records):
    datasets = pytest.importorskip("datasets")
    rows = [{"id": r["id"], "answer": r["response"], "k": r["sample"]} for r in records[:60]]
    ds = datasets.Dataset.from_list(rows)
    graded = verigate.hf.grade_dataset(ds, response_column="answer", sample_column="k", grader=grader)
    expected = grader.grade(records[:60])
    assert graded["verigate_score"] == [r["score"] for r in expected]
    assert graded["verigate_outcome"] == [r["outcome"] for r in expected]
    details = [None if d is None else json.loads(d) for d in graded["verigate_details"]]
    assert details == [r.get("details") for r in expected]
    assert graded["answer"] == ds["answer"]


def test_grade_dataset_skips_bad_rows_when_asked(grader, records):
    datasets = pytest.importorskip("datasets")
    rows = [{"id": "toy/none", "response": "x"}, {"id": records[0]["id"], "response": records[0]["response"]}]
    ds = datasets.Dataset.from_list(rows)
    with pytest.raises(verigate.InputError):
        verigate.hf.grade_dataset(ds, grader=grader)
    with pytest.warns(UserWarning, match="toy/none"):
        graded = verigate.hf.grade_dataset(ds, grader=grader, errors="skip")
    assert graded["verigate_outcome"][0] is None and graded["verigate_outcome"][1] is not None


def test_verl_reward_is_the_verigate_score(monkeypatch, grader):
    monkeypatch.setenv("VERIGATE_REGISTRY", str(REGISTRY))
    monkeypatch.setattr(verigate.verl, "_grader", None)
    item = grader.registry.item("toy/pythagorean-triple")
    wrong = item["counterexample"][0]["payload"]
    assert verigate.verl.compute_score("toy", item["reference"], "toy/pythagorean-triple") == 1.0
    assert verigate.verl.compute_score("toy", wrong, None, {"verigate_id": "toy/pythagorean-triple"}) == 0.0
    assert verigate.verl.compute_score("toy", item["reference"], {"id": "toy/pythagorean-triple"}) == 1.0
    batch = verigate.verl.compute_score_batch(
        ["toy"] * 2, [item["reference"], wrong], ["toy/pythagorean-triple"] * 2, None
    )
    assert batch == [1.0, 0.0]
    with pytest.raises(verigate.InputError, match="item id"):
        verigate.verl.compute_score("toy", "x", 7)
