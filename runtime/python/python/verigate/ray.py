"""Grading on a Ray cluster (optional dependency: ``ray``), with byte-identical results.

Two ways in:

- ``grade(responses, out, ...)``: an offline batch on Ray Core tasks. The
  responses are cut into fixed shards of ``shard_lines`` lines; each task
  grades one shard into a part file (``grade_file(..., shard=...)``: written
  to ``PART.partial``, renamed when complete, resumed if a try was killed),
  tasks are retried when a worker or node dies, and the driver merges the
  parts with ``verigate.merge`` into exactly the bytes of a single-process
  ``verigate grade``. Parts that exist are complete and skipped, so a rerun
  after the driver died grades only what is missing.
- ``GradeBatch``: a callable class for ``ray.data.Dataset.map_batches`` (an
  actor pool, one warm grader per actor) for users who already hold a dataset.
  It adds result columns, and ``verigate_line`` holds each result's exact JSON
  line: write that column, never Ray's JSON writer (it rounds floats to 10
  significant digits and escapes ``/``).

The registry reaches workers by path (a shared filesystem, or the same path
on every node) and part files go to a directory every node can write; a
worker refuses a registry whose digest differs from the driver's.

What hangs: actors pinned to a node that died wait forever, which is why the
batch driver uses tasks with retries, not actors. Give each task or actor
``num_cpus`` equal to its grader's ``jobs`` so a pool never takes every CPU (a
Ray Data actor pool holding all CPUs starves its own read tasks).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import ray

from ._verigate import Grader, InputError, Registry, RegistryError, merge

_lock = threading.Lock()
_graders: "dict[tuple, Grader]" = {}


def worker_grader(registry: str, digest: str, jobs: int) -> Grader:
    """This worker process's grader for ``registry`` (created once per process,
    keyed by pid so a forked worker never reuses its parent's engine); refuses a
    registry whose digest is not the driver's."""
    key = (os.getpid(), registry, jobs)
    with _lock:
        grader = _graders.get(key)
        if grader is None:
            grader = _graders[key] = Grader(registry, jobs=jobs)
    if grader.registry.digest != digest:
        raise RegistryError(
            f"the registry at {registry} on this worker has digest {grader.registry.digest}, "
            f"the driver's has {digest}: give every node the same registry"
        )
    return grader


def _count_lines(path: Path) -> int:
    lines, last = 0, b"\n"
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")


def _grade_shard(registry, digest, jobs, responses, judgments, part, index, count, shard_lines):
    grader = worker_grader(registry, digest, jobs)
    try:
        summary = grader.grade_file(
            responses, part, judgments, shard=(index, count), shard_lines=shard_lines
        )
        summary["errors"] = []
    except InputError as error:
        if not Path(part).exists():
            raise
        summary = {"errors": error.errors}
    return summary


def grade(
    responses: Union[str, os.PathLike],
    out: Union[str, os.PathLike],
    *,
    judgments: Optional[Union[str, os.PathLike]] = None,
    registry: Union[Registry, str, os.PathLike, None] = None,
    shard_lines: int = 500,
    parts_dir: Optional[Union[str, os.PathLike]] = None,
    jobs_per_task: int = 1,
    max_retries: int = 3,
) -> "dict[str, Any]":
    """Grades ``responses`` into ``out`` on the connected Ray cluster (``ray.init``
    first) and returns ``parts``, ``skipped`` (complete parts from an earlier
    try), ``records`` and ``bad_lines``. ``out``'s bytes equal those of
    ``verigate grade --responses RESPONSES --out OUT`` on one machine.

    Part files go to ``parts_dir`` (default: ``OUT.parts/``), which every node
    must reach at the same path, as must ``responses``, ``judgments`` and the
    registry. Bad input lines are skipped, as by the CLI; ``InputError`` is
    raised after ``out`` is written when there were any.
    """
    registry = registry if isinstance(registry, Registry) else Registry(registry)
    responses, out = Path(responses).resolve(), Path(out).resolve()
    parts_dir = Path(parts_dir) if parts_dir is not None else Path(f"{out}.parts")
    parts_dir.mkdir(parents=True, exist_ok=True)
    lines = _count_lines(responses)
    count = max(1, -(-lines // shard_lines))
    parts = [parts_dir / f"part-{index:06d}-of-{count:06d}.jsonl" for index in range(count)]
    pending = [index for index, part in enumerate(parts) if not part.exists()]
    task = ray.remote(_grade_shard).options(num_cpus=jobs_per_task, max_retries=max_retries,
                                            retry_exceptions=False)
    judged = str(Path(judgments).resolve()) if judgments is not None else None
    refs = [
        task.remote(str(registry.path), registry.digest, jobs_per_task, str(responses), judged,
                    str(parts[index]), index, count, shard_lines)
        for index in pending
    ]
    errors = [error for summary in ray.get(refs) for error in summary["errors"]]
    merged = merge(parts, out)
    summary = {"parts": count, "skipped": count - len(pending), "records": merged["records"],
               "bad_lines": len(errors)}
    if errors:
        error = InputError("\n".join(f"{source}:{line}: {message}" for source, line, message in errors[:5]))
        error.errors, error.results, error.summary = errors, None, summary
        raise error
    return summary


#: The result fields ``GradeBatch`` adds as columns (besides ``verigate_line``).
COLUMNS = ("outcome", "score", "construction", "gated", "module", "fuel_consumed")


class GradeBatch:
    """A callable class for ``Dataset.map_batches``: one warm grader per actor.

    ``ds.map_batches(GradeBatch, fn_constructor_kwargs={"registry": path},
    concurrency=2, num_cpus=1, batch_size=256)``: each batch's ``id``,
    ``sample`` and ``response`` columns (names configurable) are graded; the
    batch comes back with ``verigate_line`` (the exact result line) and
    ``verigate_<field>`` for the fields in ``COLUMNS``. Bad rows get ``None``.
    """

    def __init__(
        self,
        registry: Union[str, os.PathLike, None] = None,
        *,
        digest: Optional[str] = None,
        jobs: int = 1,
        id_column: str = "id",
        response_column: str = "response",
        sample_column: str = "sample",
    ) -> None:
        path = str(Registry(registry).path) if digest is None else str(registry)
        expected = digest if digest is not None else Registry(path).digest
        self.grader = worker_grader(path, expected, jobs)
        self.columns = (id_column, sample_column, response_column)

    def __call__(self, batch: "dict[str, Sequence[Any]]") -> "dict[str, list[Any]]":
        ids, samples, responses = (list(batch[column]) for column in self.columns)
        records = [
            {"id": str(i), "sample": _plain(s), "response": str(r)}
            for i, s, r in zip(ids, samples, responses)
        ]
        try:
            lines = self.grader.grade(records, as_lines=True)
        except InputError as error:
            lines = error.results
        out = {name: list(values) for name, values in batch.items()}
        out["verigate_line"] = lines
        parsed = [None if line is None else json.loads(line) for line in lines]
        for field in COLUMNS:
            out[f"verigate_{field}"] = [None if r is None else r.get(field) for r in parsed]
        return out


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (Ray Data hands numpy arrays)."""
    return value.item() if hasattr(value, "item") else value
