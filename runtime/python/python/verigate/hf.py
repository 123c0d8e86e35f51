"""Grading a Hugging Face ``datasets.Dataset`` (optional dependency: ``datasets``)."""

from __future__ import annotations

import json
import warnings
from typing import TYPE_CHECKING, Any, Optional

from ._verigate import Grader, InputError

if TYPE_CHECKING:  # pragma: no cover
    import datasets

#: The result fields that become columns (``id`` and ``sample`` are inputs).
RESULT_FIELDS = (
    "benchmark",
    "type",
    "category",
    "outcome",
    "message",
    "details",
    "construction",
    "proof",
    "proof_status",
    "gated",
    "score",
    "fuel_consumed",
    "module",
    "module_sha256",
    "response_sha256",
    "registry_digest",
    "verigate_version",
    "engine_fingerprint",
)


def grade_dataset(
    ds: "datasets.Dataset",
    id_column: str = "id",
    response_column: str = "response",
    sample_column: Optional[str] = None,
    *,
    grader: Optional[Grader] = None,
    registry: Any = None,
    judgments: Any = None,
    prefix: str = "verigate_",
    errors: str = "raise",
) -> "datasets.Dataset":
    """Grades every row of ``ds`` and returns it with the result columns added.

    Each row is a response: its item id in ``id_column``, the model output in
    ``response_column``, and its sample in ``sample_column`` (default: the row
    index, so every row is its own sample). ``grader`` (default: a new
    ``Grader(registry)``) grades them; ``judgments`` are proof judgments, as for
    ``Grader.grade``.

    Columns added, named ``prefix`` + field: every field of a result line but
    ``id`` and ``sample``; ``details`` (whose shape differs per benchmark) is
    its JSON text. A bad row (an unknown id, say) raises ``InputError`` after
    the others are graded (``errors="raise"``), or gets ``None`` in every
    result column with a warning (``errors="skip"``).
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors={errors!r}: give 'raise' or 'skip'")
    grader = grader if grader is not None else Grader(registry)
    ids = ds[id_column]
    responses = ds[response_column]
    samples = ds[sample_column] if sample_column is not None else range(len(ds))
    records = (
        {"id": i, "sample": s, "response": r} for i, s, r in zip(ids, samples, responses)
    )
    try:
        results = grader.grade(records, judgments)
    except InputError as error:
        if errors == "raise" or error.results is None:
            raise
        warnings.warn(f"verigate: rows left ungraded: {error}", stacklevel=2)
        results = error.results
    columns: "dict[str, list[Any]]" = {field: [] for field in RESULT_FIELDS}
    for result in results:
        for field in RESULT_FIELDS:
            value = None if result is None else result.get(field)
            if field == "details" and value is not None:
                value = json.dumps(value, sort_keys=True)
            columns[field].append(value)
    for field, values in columns.items():
        ds = ds.add_column(prefix + field, values)
    return ds
