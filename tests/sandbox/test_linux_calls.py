"""sandbox/linux.py's system calls: through sandbox/_linux.c where it is built (no process that
forks checks may hold ctypes: red team A2), else through ctypes; both make the same calls."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr_grade.sandbox import linux

SOURCE = Path(linux.__file__).resolve().parent / "_linux.c"


def test_the_c_source_and_python_agree_on_the_api():
    defined = re.search(r"#define LINUX_API (\d+)", SOURCE.read_text())
    assert defined is not None and int(defined.group(1)) == linux.LINUX_API


def test_the_built_module_is_used_and_loads_no_ctypes():
    try:
        from rlvr_grade.sandbox import _linux  # noqa: F401
    except ImportError:
        pytest.skip("sandbox/_linux.c is not built here")
    code = ("import sys\nfrom rlvr_grade.sandbox import linux, zygote, seccomp, isolation, mounts\n"
            "print(linux._sys.__name__, repr(linux.NATIVE_FALLBACK), '_ctypes' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["rlvr_grade.sandbox._linux", "''", "False"]


CALLS = """
import os, sys
from rlvr_grade.sandbox import linux
impl = linux._Ctypes() if sys.argv[1] == "ctypes" else linux._sys
out = []
impl.set_name(b"rlvr-test-name-too-long")
out.append(open("/proc/self/comm").read().strip())
impl.prctl(linux.PR_SET_DUMPABLE, 1)
out.append("dumpable")
for call, args in ((impl.unshare, (-1,)), (impl.setns, (-1, 0)), (impl.umount2, ("/nonexistent-rlvr", 0)),
                   (impl.pivot_root, ("/nonexistent-a", "/nonexistent-b")), (impl.seccomp_load, (b"\\0" * 8,))):
    try:
        call(*args)
        out.append("ok")
    except OSError as exc:
        out.append(exc.errno)
print(out)
"""


def test_the_ctypes_fallback_makes_the_same_calls():
    try:
        from rlvr_grade.sandbox import _linux  # noqa: F401
    except ImportError:
        pytest.skip("sandbox/_linux.c is not built here")
    got = [subprocess.run([sys.executable, "-c", CALLS, impl], capture_output=True, text=True, check=True).stdout
           for impl in ("c", "ctypes")]
    assert got[0] == got[1] and "rlvr-test-name-" in got[0], got


def test_a_probe_answers_in_a_throwaway_child(tmp_path):
    # One helper for the questions that cannot be undone in the asking process (inner's "can
    # this runner build namespaces", isolation's "may a check's uid make a user namespace",
    # "may this process"): three copies of fork/try/_exit/waitpid, one of which let an
    # exception other than OSError run on in the child, as a second copy of the grader.
    import errno
    import os
    import signal

    here = os.getcwd()
    assert linux.probe(lambda: os.chdir(tmp_path)) == 0 and os.getcwd() == here

    def refused() -> None:
        raise OSError(errno.EPERM, "refused")

    assert linux.probe(refused) == errno.EPERM
    assert linux.probe(lambda: 1 / 0) == 1
    assert linux.probe(lambda: 7) == 7  # a step may answer with a small number (zygote's preload trial)
    assert linux.probe(lambda: os.kill(os.getpid(), signal.SIGKILL)) == -signal.SIGKILL
