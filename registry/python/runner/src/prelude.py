# verigate's Python interpreter, pre-initialised: runs once, when the module is
# built, with the standard library mounted at /usr/local/lib (see main.rs).
import builtins, gc, importlib.machinery, importlib.util, marshal, os, sys, traceback, types, zipimport

# Native CPython's default (the WASI build lowers it to 600).
sys.setrecursionlimit(1000)
sys.argv = ["verifier.py"]

# What verifiers commonly import, imported once here rather than in every run.
for _name in ("abc", "array", "ast", "base64", "bisect", "cmath", "collections", "collections.abc",
              "contextlib", "copy", "dataclasses", "datetime", "decimal", "enum", "fractions",
              "functools", "heapq", "io", "itertools", "json", "linecache", "math", "numbers",
              "operator", "pprint", "random", "re", "statistics", "string", "struct", "textwrap",
              "time", "types", "typing", "unicodedata", "warnings", "_strptime"):
    __import__(_name)

# The standard library, in memory: its sources (for tracebacks) and their
# compiled code, served by an import finder, so a run reads no file, and a
# module first imported then is still found and costs no compiling.
# Left out: what cannot work in the sandbox or only serves interactive use.
_ARCHIVE = "/usr/local/lib/python311.zip"
_PREFIX = _ARCHIVE + "/"
_LEFT_OUT = {"asyncio", "concurrent", "ctypes", "curses", "dbm", "email", "http", "idlelib",
             "lib-dynload", "multiprocessing", "pydoc", "pydoc_data", "sqlite3", "tkinter",
             "turtle", "wsgiref", "xmlrpc", "_pydecimal"}
_archive = zipimport.zipimporter(_ARCHIVE)
_SOURCES = {name: _archive.get_data(name) for name in sorted(_archive._files)
            if name.endswith(".py") and name.split("/")[0].removesuffix(".py") not in _LEFT_OUT}
_CODE = {name: marshal.dumps(compile(source, _PREFIX + name, "exec", dont_inherit=True))
         for name, source in _SOURCES.items()}


class _Loader(importlib.machinery.SourceFileLoader):
    """Loads a standard-library module from memory: its code compiled at
    pre-initialisation, its source for tracebacks."""

    def get_code(self, fullname):
        return marshal.loads(_CODE[self.path.removeprefix(_PREFIX)])

    def get_data(self, path):
        try:
            return _SOURCES[path.removeprefix(_PREFIX)]
        except KeyError:
            raise OSError(f"{path}: not in verigate's standard library") from None

    def path_stats(self, path):
        raise OSError(path)


class _Finder:
    """Finds standard-library modules in memory, by name."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        base = name.replace(".", "/")
        for relative, package in ((base + "/__init__.py", True), (base + ".py", False)):
            if relative in _SOURCES:
                origin = _PREFIX + relative
                return importlib.util.spec_from_file_location(
                    name, origin, loader=_Loader(name, origin),
                    submodule_search_locations=[_PREFIX + base] if package else None)
        return None

    @classmethod
    def invalidate_caches(cls):
        pass


# Modules already imported keep their code; their source now comes from memory too.
for _module in list(sys.modules.values()):
    _spec = getattr(_module, "__spec__", None)
    if _spec is not None and isinstance(_spec.loader, zipimport.zipimporter):
        _spec.loader = _module.__loader__ = _Loader(_spec.name, _spec.origin)
sys.meta_path.insert(sys.meta_path.index(importlib.machinery.PathFinder), _Finder)
sys.path.clear()
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()

_FILENAME = "verifier.py"


class _Script:
    """The loader of `__main__`: gives tracebacks the script's lines."""

    def __init__(self, source):
        self.source = source

    def get_source(self, name):
        return self.source


def _read_stdin():
    chunks = []
    while chunk := os.read(0, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")


def _exit_status(code):
    """The exit status `SystemExit(code)` gives, as CPython computes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code if -2**31 <= code < 2**31 else 1
    print(code, file=sys.stderr)
    return 1


def _run():
    """Runs this run's script as `__main__`, as `python verifier.py` would;
    returns the exit status."""
    environ = sys.__dict__.pop("_verigate_environ", b"")
    source = None
    for entry in environ.split(b"\0"):
        key, _, value = entry.partition(b"=")
        if key == b"VERIGATE_SCRIPT":
            source = value.decode("utf-8")
        elif key:
            os.environ[key.decode("utf-8", "surrogateescape")] = value.decode("utf-8", "surrogateescape")
    code = None
    if source is None:
        if _verigate.kept is None:
            sys.stderr.write("verigate's Python interpreter was given no script "
                             "(run one with `verigate run verifier.py`)\n")
            return 2
        source, code = _verigate.kept
    main = types.ModuleType("__main__")
    main.__file__ = _FILENAME
    main.__builtins__ = builtins
    main.__loader__ = _Script(source)
    sys.modules["__main__"] = main
    try:
        exec(code or compile(source, _FILENAME, "exec"), main.__dict__)
    except SystemExit as exit:
        return _exit_status(exit.code)
    except BaseException as error:
        # As CPython prints it, without this function's frame.
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        return 1
    return 0


def _main():
    """A run: the script, the streams flushed, then the process ends at once
    (no interpreter finalisation: the instance is thrown away)."""
    status = _run()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(status)


_verigate = types.ModuleType("_verigate", "verigate's interpreter: the run entry point.")
_verigate.main = _main
_verigate.kept = None
# The prelude's own namespace, which these functions use as their globals.
_verigate.prelude = sys.modules["__main__"]
# A script on stdin now is compiled and kept: a standalone verifier module.
_source = _read_stdin()
if _source:
    _verigate.kept = (_source, compile(_source, _FILENAME, "exec"))
sys.modules["_verigate"] = _verigate

del _name, _archive, _module, _spec, _source
# Everything alive now lives as long as the module: leaving it out of
# collections keeps a run from touching (and copying) its pages.
gc.collect()
gc.freeze()
