"""What a remote sandbox receives for one check: ONE gzip'd tar holding the code that runs
inside (the sealed harness, the top-level package rlvr_harness/, and the one-shot runner around it: RUNNER),
so the runner inside always matches the grader outside whatever the image holds, and the
check's request. Shipped in a single upload; unpacked and run by BOOTSTRAP. Nothing of the
grading pipeline (checks, scoring, the CLI, io, cache) is in it: tests/project/test_structure.py
checks that RUNNER plus the harness is exactly what the runner imports."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import tarfile
import time
import tokenize
from typing import Any

import rlvr_harness
from rlvr_grade.sandbox import PACKAGE_DIR

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
    """One .tgz: the package plus `request` as `name` (a check's request.json; a warm seed's
    seed.json, see warm.py)."""
    buf = io.BytesIO()
    now = int(time.time())
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
        files = list(shipped_files()) + [(name, json.dumps(request).encode())]
        for rel, data in files:
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = now
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()
