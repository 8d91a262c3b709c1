"""The gVisor backend specifically (behaviour every backend shares is in test_conformance.py):
the real runsc, one sandbox per check."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, write_jsonl

ADD = "def add(a, b):\n    return a + b\n"

needs_runsc = pytest.mark.skipif(
    shutil.which("runsc") is None or os.geteuid() != 0,
    reason="needs runsc (apt-get install runsc; .ci/run installs it) and root",
)


def test_missing_runsc_is_one_clear_error():
    from rlvr_grade.sandbox.gvisor import GvisorBackend
    from rlvr_grade.types import SandboxError

    with pytest.raises(SandboxError, match="apt-get install runsc"):
        GvisorBackend(runsc="/nonexistent/runsc").start()


@needs_runsc
def test_cli_grades_with_gvisor_and_the_check_cannot_read_the_graders_files(tmp_path):
    # World-readable secrets in the grader's working directory (with the input file) and in
    # /tmp, which runsc's overlay shows live from the host: the check must read neither.
    public = Path(tempfile.mkdtemp(prefix="rlvr-gvisor-test-", dir="/var/tmp"))
    shared = Path(tempfile.mkdtemp(prefix="rlvr-gvisor-test-", dir="/tmp"))
    try:
        for d, name in ((public, "secret.txt"), (shared, "tmp-secret.txt")):
            d.chmod(0o755)
            (d / name).write_text("hidden")
            (d / name).chmod(0o644)
        secret = public / "secret.txt"
        tmp_secret = shared / "tmp-secret.txt"
        probe = (
            "def peek(path):\n"
            "    try:\n"
            "        return open(path).read()\n"
            "    except OSError:\n"
            "        return 'denied'\n"
        )
        rows = [
            {"completion": ADD, "tests": "assert add(1, 2) == 3\n"},
            {"completion": "def add(a, b):\n    return 0\n", "tests": "assert add(1, 2) == 3\n"},
            {"completion": probe, "tests": f"assert peek({str(secret)!r}) == 'denied'\nassert peek({str(tmp_secret)!r}) == 'denied'\n"},
        ]
        src = write_jsonl(public / "in.jsonl", rows)
        src.chmod(0o644)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        res = subprocess.run(
            [sys.executable, "-m", "rlvr_grade", "score", str(src), "-o", "-", "--backend", "gvisor", "--timeout", "5", "-q"],
            cwd=public, env=env, capture_output=True, text=True, timeout=300,
        )
        assert res.returncode == 0, res.stderr
        out = [json.loads(line) for line in res.stdout.splitlines()]  # stdout is pure JSONL
        assert [(r["status"], r["reward"]) for r in out] == [("pass", 1.0), ("fail", 0.0), ("pass", 1.0)], out
        assert oct(os.stat("/root").st_mode & 0o777) == oct(0o700)  # the overlay's chmods never reach the host
    finally:
        shutil.rmtree(public, ignore_errors=True)
        shutil.rmtree(shared, ignore_errors=True)
