"""verigate: run untrusted benchmark verifiers in a WebAssembly sandbox and
grade model responses with them, in this process.

- ``Registry(path=None)``: a frozen verifier registry, checked against its lock.
- ``Grader(registry=None, *, jobs=None, cache_dir=None, cache=True)``: one warm
  engine, module cache and worker pool; ``grade``, ``grade_iter``, ``run``,
  ``grade_file``.
- ``run_module(module, payload, ...)``: one verdict from a module outside any
  registry.
- ``report(results, *, registry=None, early_fail=True)``: the benchmark tables
  as numbers.
- ``merge(parts, out)``: the part files of sharded runs, checked and joined
  into the bytes of one run.
- Errors: ``VerigateError`` and its subclasses ``InputError``,
  ``RegistryError``, ``HostError``.

Integrations: ``verigate.hf`` (Hugging Face ``datasets``), ``verigate.verl``
(an RL reward function) and ``verigate.ray`` (grading on a Ray cluster).
"""

from ._verigate import (
    Grader,
    GradeIter,
    HostError,
    InputError,
    Registry,
    RegistryError,
    VerigateError,
    __version__,
    merge,
    report,
    run_module,
)

__all__ = [
    "Grader",
    "GradeIter",
    "HostError",
    "InputError",
    "Registry",
    "RegistryError",
    "VerigateError",
    "__version__",
    "merge",
    "report",
    "run_module",
]
