"""The gVisor backend specifically (behaviour every backend shares is in test_conformance.py):
the real runsc, one sandbox per check."""

from __future__ import annotations

import glob
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


# -- the host cgroup around each runsc (issue 16) ---------------------------------------------
# What the attacks against it are: tests/sandbox/test_adversarial.py
# test_gvisor_limits_cover_the_whole_check. Here: what honest checks and the host see.
HOG = ("import pytest\n\ndef f(x):\n    block = bytearray(64 << 20)\n    for i in range(0, len(block), 4096):\n"
       "        block[i] = 1\n    s = 0\n    for i in range(N):\n        s += i * i\n    return x + 1\n")
PYTEST_HOG = "from solution import f\n\ndef test_f():\n    assert f(1) == 2\n"


def _pytest_check(program: str, limits):
    from rlvr_grade.types import Check
    from rlvr_harness.splitting import pytest_ids

    return Check(style="pytest", program=program, tests=PYTEST_HOG, expected_tests=tuple(pytest_ids(PYTEST_HOG)), limits=limits)


@needs_runsc
def test_honest_checks_near_their_limits_pass_with_the_sandbox_counted():
    """The sandbox's cgroup holds the check's memory limit plus the sandbox kernel's own share,
    and counts its CPU from the check's start: a pytest check holding half its memory limit
    (64 of 128 MiB: 60 MiB more in runsc, the sentry and the runner) passes, and one using half
    its CPU limit does, in every slot. With the cgroup at the check's limit alone, the first
    was killed for memory."""
    from rlvr_grade.checks.styles import score
    from rlvr_grade.sandbox import cgroups
    from rlvr_grade.sandbox.gvisor import GvisorBackend
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import Limits

    backend = GvisorBackend(concurrency=2, grace_s=20)
    backend.start()
    try:
        assert backend._slots and not backend.no_cgroup, backend.no_cgroup
        assert "host cgroup per slot" in backend.isolation()["limits"]
        for n, limits in ((0, Limits(cpu_s=10.0, wall_s=60.0, memory_mb=128)),
                          (3_000_000, Limits(cpu_s=4.0, wall_s=60.0, memory_mb=256)),
                          (0, Limits(cpu_s=10.0, wall_s=60.0, memory_mb=128))):
            check = _pytest_check(HOG.replace("N", str(n)), limits)
            ex = backend.run(check)
            out = score(check, ex, RewardConfig(), 0.0)
            assert (out.status, ex.limit_hit) == ("pass", None), (out, ex.cpu_s, ex.peak_memory_mb, ex.stderr[-500:])
        names = [os.path.basename(d) for slot in backend._slots for d in slot.dirs]
        assert all(cgroups.GVISOR_NAME.fullmatch(n) for n in names), names
    finally:
        backend.close()
    assert not [n for n in names if glob.glob(os.path.join(cgroups.ROOT, "*", "rlvr-grade", n))
                + glob.glob(os.path.join(cgroups.ROOT, "rlvr-grade", n))]  # close() removes them


@needs_runsc
def test_a_dead_graders_gvisor_slots_are_swept_at_start():
    from rlvr_grade.sandbox import cgroups
    from rlvr_grade.sandbox.gvisor import GvisorBackend

    proc = subprocess.Popen(["true"])
    proc.wait()
    stale = cgroups.SlotCgroup(f"gvisor-{proc.pid}-0-slot0")
    backend = GvisorBackend(concurrency=1)
    backend.start()
    try:
        assert not any(os.path.isdir(d) for d in stale.dirs)
    finally:
        backend.close()
        stale.remove()


@needs_runsc
def test_without_a_cgroup_the_rlimits_hold_and_it_says_so(monkeypatch, capsys):
    """Where no cgroup can be made (here: no cgroup fs where the backend looks), the checks run
    under the runner's rlimits, the backend says so once on stderr and in its isolation."""
    from rlvr_grade.checks.styles import score
    from rlvr_grade.sandbox import cgroups, gvisor
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import Limits

    monkeypatch.setattr(cgroups, "ROOT", "/nonexistent/cgroup")
    monkeypatch.setattr(gvisor, "_warned", [])
    for again in (False, True):
        backend = gvisor.GvisorBackend(concurrency=1)
        backend.start()
        try:
            assert backend._slots == [] and "no cgroup" in backend.no_cgroup
            if again:
                continue
            assert backend.isolation()["limits"].startswith("rlimits only, per process: no host cgroup for runsc")
            check = _pytest_check(HOG.replace("N", "0"), Limits(cpu_s=10.0, wall_s=60.0, memory_mb=256))
            ex = backend.run(check)
            assert score(check, ex, RewardConfig(), 0.0).status == "pass", ex.stderr[-500:]
            check = _pytest_check(HOG.replace("N", "0"), Limits(cpu_s=10.0, wall_s=60.0, memory_mb=48))
            ex = backend.run(check)
            assert score(check, ex, RewardConfig(), 0.0).status != "pass", ex  # RLIMIT_AS still holds
        finally:
            backend.close()
    assert capsys.readouterr().err.count("Warning: gvisor: no host cgroup for runsc here") == 1


@needs_runsc
def test_a_limit_the_cgroup_refuses_is_the_sandboxs_error_not_a_crash():
    """A memory limit the kernel will not take (here a negative one, which nothing upstream
    refuses) is the row's sandbox_error (SandboxError), never an OSError out of the backend."""
    from rlvr_grade.sandbox.gvisor import SENTRY_MEMORY_MB, GvisorBackend
    from rlvr_grade.types import Limits, SandboxError

    backend = GvisorBackend(concurrency=1)
    backend.start()
    try:
        with pytest.raises(SandboxError, match="cannot set the limits of a slot's cgroup"):
            backend.run(_pytest_check(HOG.replace("N", "0"), Limits(cpu_s=5.0, wall_s=30.0, memory_mb=-SENTRY_MEMORY_MB - 1024)))
        check = _pytest_check(HOG.replace("N", "0"), Limits(cpu_s=10.0, wall_s=60.0, memory_mb=256))
        assert backend.run(check).limit_hit is None  # the slot is usable again
    finally:
        backend.close()
