"""Type stubs for verigate's extension module."""

from os import PathLike
from typing import Any, Iterable, Iterator, Optional, Union

__version__: str

_Path = Union[str, "PathLike[str]"]
_Record = Union[dict, str, bytes]
Result = dict[str, Any]

class VerigateError(Exception):
    """Base class of every error verigate raises."""

class InputError(VerigateError):
    """Bad input: a record, a file or an argument."""

    #: Each bad record as (source, position, message): ``records``/``judgments``
    #: with a 0-based index, or a file's path with a 1-based line.
    errors: list[tuple[str, int, str]]
    #: What was graded, ``None`` at each bad record (``None`` for file runs).
    results: Optional[list[Optional[Result]]]

class RegistryError(VerigateError):
    """The registry cannot be used; the message names the file."""

class HostError(VerigateError):
    """The host failed; nobody's input caused it."""

class Registry:
    """A verifier registry, opened and checked against its lock."""

    def __init__(self, path: Optional[_Path] = None) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def digest(self) -> str: ...
    def items(self) -> list[str]: ...
    def item(self, id: str) -> dict[str, Any]: ...
    def modules(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, id: str) -> bool: ...

class GradeIter(Iterator[Result]):
    """Results of ``Grader.grade_iter``, in input order."""

    def __iter__(self) -> "GradeIter": ...
    def __next__(self) -> Result: ...

class Grader:
    """Grades model responses against a registry in this process (thread-safe)."""

    def __init__(
        self,
        registry: Union[Registry, _Path, None] = None,
        *,
        jobs: Optional[int] = None,
        cache_dir: Optional[_Path] = None,
        cache: bool = True,
    ) -> None: ...
    @property
    def registry(self) -> Registry: ...
    @property
    def jobs(self) -> int: ...
    def grade(
        self,
        records: Iterable[_Record],
        judgments: Optional[Iterable[_Record]] = None,
        *,
        as_lines: bool = False,
    ) -> list[Any]: ...
    def grade_iter(
        self, records: Iterable[_Record], judgments: Optional[Iterable[_Record]] = None
    ) -> GradeIter: ...
    def run(self, item_id: str, payload: Union[str, bytes]) -> Result: ...
    def grade_file(
        self,
        responses: _Path,
        out: _Path,
        judgments: Optional[_Path] = None,
        resume: bool = False,
        *,
        shard: Optional[tuple[int, int]] = None,
        shard_lines: Optional[int] = None,
    ) -> dict[str, Any]: ...
    def _bench_native(self, item_id: str, payload: Union[str, bytes], n: int) -> list[int]: ...

def run_module(
    module: Union[bytes, _Path],
    payload: Union[str, bytes],
    *,
    fuel: Optional[int] = None,
    memory_mb: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    max_output_kb: Optional[int] = None,
    protocol: Optional[str] = None,
    item_dir: Optional[_Path] = None,
) -> Result: ...
def report(
    results: Union[_Path, Iterable[_Record]],
    *,
    registry: Union[Registry, _Path, None] = None,
    early_fail: bool = True,
) -> dict[str, Any]: ...
def merge(parts: Iterable[_Path], out: _Path) -> dict[str, int]: ...
def _serve_compile(input: str, output: str, engine: str) -> None: ...
