"""sandbox/_child.c and the Python that calls it speak one protocol (zygote.C_PROTOCOL): a build
of _child.c from another version (a `git pull` without `make install`) is refused at import and
checks are set up in Python, with a warning `doctor` shows, instead of every check failing its
set-up ("child ended during setup (status 17920)")."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

from rlvr_grade.sandbox import zygote
from tests.conftest import requires_root

SOURCE = Path(zygote.__file__).resolve().parent / "_child.c"


def test_a_change_of_child_c_comes_with_a_new_protocol():
    text = SOURCE.read_bytes()
    defined = re.search(rb"#define CHILD_PROTOCOL (\d+)", text)
    assert defined is not None and int(defined.group(1)) == zygote.C_PROTOCOL, "CHILD_PROTOCOL in _child.c != zygote.C_PROTOCOL"
    assert hashlib.sha256(text).hexdigest() == zygote.C_SOURCE_SHA256, (
        "sandbox/_child.c changed: bump CHILD_PROTOCOL in it and zygote.C_PROTOCOL, then record the file's "
        f"new sha256 in zygote.C_SOURCE_SHA256 ({hashlib.sha256(text).hexdigest()})")


def test_the_built_extension_speaks_this_protocol():
    try:
        from rlvr_grade.sandbox import _child
    except ImportError:
        pytest.skip("sandbox/_child.c is not built here")
    assert _child.PROTOCOL == zygote.C_PROTOCOL
    assert zygote._c_setup() is _child.enter and zygote.c_setup_problem() == ""


def _compiler() -> str:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None or not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        pytest.skip("no C compiler or Python headers here")
    return cc


@requires_root
def test_a_stale_build_sets_checks_up_in_python_and_doctor_warns():
    """A copy of the package whose _child extension was built with another protocol number:
    doctor's probe check runs (on the Python path) and its report carries the warning."""
    cc = _compiler()
    package = Path(zygote.__file__).resolve().parents[1]
    base = Path(tempfile.mkdtemp(prefix="rlvr-stale-child-", dir="/var/tmp"))
    try:
        copy = base / "rlvr_grade"
        shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "_child*.so"))
        os.chmod(base, 0o755)
        built = copy / "sandbox" / ("_child" + sysconfig.get_config_var("EXT_SUFFIX"))
        subprocess.run([cc, "-shared", "-fPIC", "-O1", f"-I{sysconfig.get_paths()['include']}",
                        f"-DCHILD_PROTOCOL={zygote.C_PROTOCOL - 1}", str(SOURCE), "-o", str(built)], check=True)
        code = ("import json, rlvr_grade; from rlvr_grade.doctor import diagnose; r = diagnose(); "
                "print(json.dumps({'file': rlvr_grade.__file__, 'warnings': list(r.warnings), 'setup': r.isolation.get('setup')}))")
        env = {**os.environ, "PYTHONPATH": str(base)}
        proc = subprocess.run([sys.executable, "-c", code], cwd=str(base), env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        got = json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert got["file"].startswith(str(base))
    assert got["setup"] == "per check in Python", got
    assert len(got["warnings"]) == 1 and f"protocol {zygote.C_PROTOCOL - 1}, this code {zygote.C_PROTOCOL}" in got["warnings"][0], got
