"""What a remote sandbox receives for one check: ONE gzip'd tar holding the code that runs
inside (the sealed harness, the top-level package rlvr_harness/, with its C extensions as this
grader built them, and the one-shot runner around it: RUNNER), so the runner inside always
matches the grader outside whatever the image holds, and the check's request. Shipped in a single upload; unpacked and run by BOOTSTRAP. Nothing of the
grading pipeline (checks, scoring, the CLI, io, cache) is in it: tests/project/test_structure.py
checks that RUNNER plus the harness is exactly what the runner imports."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
import tokenize
from typing import Any

import rlvr_harness
from rlvr_grade.sandbox import PACKAGE_DIR
from rlvr_grade.sandbox.inner import EXTENSIONS

ARCHIVE = "rlvr-check.tgz"
# Runs as `python3 -s -c BOOTSTRAP rlvr-check.tgz` in the sandbox's working directory.
BOOTSTRAP = (
    "import os,sys,tarfile\n"
    "src=sys.argv[1];d=os.path.abspath('.rlvr')\n"
    "t=tarfile.open(src)\n"
    "t.extractall(d,**({'filter':'data'} if hasattr(tarfile,'data_filter') else {}))\n"
    "t.close();os.unlink(src)\n"
    # By location, as local.boot_code: not on sys.path, so a check cannot import them by name.
    "import importlib.util as u\n"
    "for n in ('rlvr_grade','rlvr_harness'):\n"
    " s=u.spec_from_file_location(n,os.path.join(d,n,'__init__.py'),submodule_search_locations=[os.path.join(d,n)])\n"
    " m=u.module_from_spec(s);sys.modules[n]=m;s.loader.exec_module(m)\n"
    "from rlvr_grade.sandbox.inner import main\n"
    "sys.exit(main(['--request',os.path.join(d,'request.json')]))\n"
)


# The runner (sandbox/inner.py) and every module it imports, besides the harness: paths
# under rlvr_grade/. The harness is shipped whole (its styles are imported by name).
RUNNER = (
    "__init__.py",
    "links.py",
    "leftovers.py",
    "sandbox/__init__.py",
    "sandbox/inner.py",
    "sandbox/warm.py",
    "sandbox/zygote.py",
    "sandbox/isolation.py",
    "sandbox/linux.py",
    "sandbox/mounts.py",
    "sandbox/protocol.py",
    "sandbox/root.py",
    "sandbox/seccomp.py",
    "sandbox/cgroups.py",
)


@functools.lru_cache(maxsize=1)
def package_files() -> tuple[tuple[str, bytes], ...]:
    """The .py files shipped (RUNNER and the harness), as (archive path, bytes)."""
    pkg = PACKAGE_DIR
    harness = os.path.dirname(os.path.abspath(rlvr_harness.__file__))
    paths = [(os.path.join("rlvr_grade", rel), os.path.join(pkg, rel)) for rel in RUNNER]
    for dirpath, dirnames, filenames in os.walk(harness):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for n in sorted(filenames):
            if n.endswith(".py"):
                full = os.path.join(dirpath, n)
                paths.append((os.path.join("rlvr_harness", os.path.relpath(full, harness)), full))
    out = []
    for rel, full in paths:
        with open(full, "rb") as fh:
            out.append((rel, fh.read()))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def shipped_files() -> tuple[tuple[str, bytes], ...]:
    """package_files() as they are shipped: each file's comments cut, nothing else. Line and
    column numbers stay where they were, so the compiled code is the same (tracebacks from a
    remote check name the same lines); tests/project/test_structure.py compares the bytecode.
    The archive is ~14% smaller for it; the cache key (harness_digest) is over the files whole."""
    return tuple((rel, _without_comments(data)) for rel, data in package_files())


@functools.lru_cache(maxsize=1)
def shipped_extensions() -> tuple[tuple[str, bytes], ...]:
    """The harness's C extensions (inner.EXTENSIONS, of extension_files()) as Beam's archive
    ships them: (archive path, bytes), stripped of symbols where `strip` is installed (28,632 ->
    23,336 bytes). They carry defences (the frame fence, the array and mmap seals, numpy's
    checks): a runner whose image cannot load them, or finds one missing, refuses the check
    (inner.require_extensions)."""
    out = []
    for rel, host in extension_files():
        folder, _, name = rel.rpartition("/")
        if folder == "rlvr_harness" and name.partition(".")[0] in EXTENSIONS:
            out.append((rel, _stripped(host)))
    return tuple(out)


def _stripped(path: str) -> bytes:
    tool = shutil.which("strip")
    if tool is not None:
        with tempfile.TemporaryDirectory(prefix="rlvr-strip-") as d:
            out = os.path.join(d, "x.so")
            if subprocess.run([tool, "--strip-unneeded", "-o", out, path], capture_output=True).returncode == 0:
                with open(out, "rb") as fh:
                    return fh.read()
    with open(path, "rb") as fh:
        return fh.read()


def _without_comments(data: bytes) -> bytes:
    text = data.decode("utf-8")
    lines = text.splitlines(keepends=True)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col].rstrip() + "\n"
    return "".join(lines).encode("utf-8")


@functools.lru_cache(maxsize=1)
def harness_digest() -> str:
    """Hash of the code that runs inside the sandbox (part of the cache key)."""
    h = hashlib.sha256()
    for rel, data in package_files():
        h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def build_archive(request: dict[str, Any], name: str = "request.json") -> bytes:
    """One .tgz: the package and its extensions plus `request` as `name` (a check's
    request.json; a warm seed's seed.json, see warm.py)."""
    buf = io.BytesIO()
    now = int(time.time())
    native = dict(shipped_extensions())
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
        files = list(shipped_files()) + list(native.items()) + [(name, json.dumps(request).encode())]
        for rel, data in files:
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o755 if rel in native else 0o644
            info.mtime = now
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@functools.lru_cache(maxsize=1)
def extension_files() -> tuple[tuple[str, str], ...]:
    """The C extensions built beside the shipped modules, as (path in the package tree, host
    file): the harness's (_dictver, _arrays) and the runner's (sandbox/_child, _linux), those
    this interpreter's build made (its EXTENSION_SUFFIXES). Absent where no compiler built
    them; a local check then runs without them, a remote runner refuses the check
    (inner.require_extensions: the harness's carry defences)."""
    import importlib.machinery

    suffixes = tuple(s for s in importlib.machinery.EXTENSION_SUFFIXES if s != ".so") or (".so",)
    folders = {os.path.dirname(rel) for rel, _ in package_files()}
    tops = {"rlvr_grade": PACKAGE_DIR, "rlvr_harness": os.path.dirname(os.path.abspath(rlvr_harness.__file__))}
    out = []
    for folder in sorted(folders):
        top, _, rest = folder.partition("/")
        host = os.path.join(tops[top], rest)
        for name in sorted(os.listdir(host)):
            if name.endswith(suffixes) and os.path.isfile(os.path.join(host, name)):
                out.append((os.path.join(folder, name), os.path.join(host, name)))
    return tuple(out)


# Compiles the copy's modules under the names the sandbox shows them at (run by the interpreter
# that will load them, so its bytecode tag is the one it reads): argv = the copy, HARNESS_AT.
_COMPILE = """
import compileall, os, py_compile, sys
top, at = sys.argv[1], sys.argv[2]
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
for name in sorted(os.listdir(top)):
    if not compileall.compile_dir(os.path.join(top, name), ddir=at + "/" + name, quiet=2, invalidation_mode=mode, workers=1):
        sys.exit(1)
"""


def harness_copy(python: str, base: str | None = None) -> tuple[str, int]:
    """A folder holding rlvr_grade/ and rlvr_harness/ as they run inside a sandbox (the files
    package_files() and extension_files() name, and nothing else of the checkout), with their
    bytecode compiled by `python` as root.HARNESS_AT/<package>/...: what a sandbox that imports
    the runner from its root (gVisor) is shown there. The checkout's own __pycache__, which an
    import or pip wrote, names the checkout in every code object, and a check reads the files
    (tests/adversarial/grader_paths_in_files.py). Made once per content and interpreter in the
    farm folder (root.farm_base(), `harness-<key>`), with an open descriptor holding a shared
    lock on it: root.sweep removes it an hour after its last use, when nobody holds one."""
    import fcntl
    import secrets
    import shutil
    import subprocess

    from rlvr_grade.sandbox import root

    base = base or root.farm_base()
    real = os.path.realpath(python)
    st = os.stat(real)
    h = hashlib.sha256(f"{harness_digest()}\n{real}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    for rel, host in extension_files():
        with open(host, "rb") as fh:
            h.update(rel.encode() + b"\0" + hashlib.sha256(fh.read()).digest())
    final = os.path.join(base, "harness-" + h.hexdigest()[:24])
    if not os.path.isdir(final):
        os.makedirs(base, mode=0o700, exist_ok=True)
        tmp = os.path.join(base, f".build-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            for rel, data in package_files():
                path = os.path.join(tmp, rel)
                os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(data)
            for rel, host in extension_files():
                shutil.copyfile(host, os.path.join(tmp, rel))
                os.chmod(os.path.join(tmp, rel), 0o755)
            from rlvr_grade.sandbox.root import HARNESS_AT

            done = subprocess.run([python, "-I", "-c", _COMPILE, tmp, HARNESS_AT], capture_output=True, text=True,
                                  timeout=300, stdin=subprocess.DEVNULL)
            if done.returncode != 0:
                raise OSError(f"{python} could not compile the harness: {(done.stderr or done.stdout).strip()[-300:]}")
            for dirpath, dirnames, filenames in os.walk(tmp):
                for n in dirnames:
                    os.chmod(os.path.join(dirpath, n), 0o755)
                for n in filenames:
                    os.chmod(os.path.join(dirpath, n), 0o755 if n.endswith(".so") else 0o644)
            os.chmod(tmp, 0o755)
            try:
                os.rename(tmp, final)
            except OSError as exc:  # another grader made the same copy meanwhile
                import errno

                if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    fd = os.open(final, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        os.utime(final)  # in use: root.sweep leaves what was used within the hour
    except OSError:
        pass
    return final, fd
