"""An RL reward function in verl's shape, backed by one grader per process.

Point verl at it with ``custom_reward_function.path`` set to this file
(``python -c "import verigate.verl as v; print(v.__file__)"``) and
``custom_reward_function.name=compute_score`` (or ``compute_score_batch`` with
verl's batch reward manager).

Convention: the item id is ``extra_info["verigate_id"]`` when given, else
``ground_truth`` (the item id as a string, or a dict with an ``"id"``). The
reward is the result's ``score`` in [0, 1]: the verifier's score for
construction items; 0 for proof-judged items, which need judgments that a
reward call does not have. The registry is ``$VERIGATE_REGISTRY``, else
``./registry``.
"""

from __future__ import annotations

import threading
from typing import Any, Optional, Sequence

from ._verigate import Grader, InputError

_lock = threading.Lock()
_grader: Optional[Grader] = None


def grader() -> Grader:
    """The process-wide grader (created on first use; a forked child rebuilds its engine)."""
    global _grader
    with _lock:
        if _grader is None:
            _grader = Grader()
        return _grader


def item_id(ground_truth: Any, extra_info: Optional[dict] = None) -> str:
    """The registry item a reward call grades against (see the module's convention)."""
    if isinstance(extra_info, dict) and extra_info.get("verigate_id") is not None:
        return str(extra_info["verigate_id"])
    if isinstance(ground_truth, dict) and "id" in ground_truth:
        return str(ground_truth["id"])
    if isinstance(ground_truth, str):
        return ground_truth
    raise InputError(
        "no item id: give extra_info['verigate_id'] or the item id as ground_truth"
    )


def compute_score(
    data_source: Any, solution_str: str, ground_truth: Any, extra_info: Optional[dict] = None
) -> float:
    """The reward of one response: its verigate score in [0, 1]."""
    record = {"id": item_id(ground_truth, extra_info), "sample": 0, "response": solution_str}
    return float(grader().grade([record])[0]["score"])


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Optional[dict]]] = None,
) -> "list[float]":
    """The rewards of a batch, graded in parallel on the grader's workers."""
    infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    records = [
        {"id": item_id(truth, info), "sample": index, "response": solution}
        for index, (solution, truth, info) in enumerate(zip(solution_strs, ground_truths, infos))
    ]
    return [float(result["score"]) for result in grader().grade(records)]
