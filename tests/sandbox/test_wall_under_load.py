"""The wall deadline does not charge a check for the time it waited for a CPU (process.collect
`waited`): the same correct program gets the same verdict on an idle and on an overloaded
machine, while a sleeping hang still stops at its wall limit and a spin at its CPU limit.

The load is made deterministic, not taken from the machine: the grader (and so its workers and
every check they fork) is pinned to ONE CPU, and the test starts busy loops pinned to the same
CPU, so a check gets at most 1/(hogs + 1) of it whatever else runs. Each check asserts that it
is confined to one CPU, so the test cannot pass on a setup that did not load it. Through the
real local sandbox, both set-up paths of a check's child (sandbox/_child.c and Python)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.checks.styles import score
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Check, Limits, Rollout
from rlvr_harness.splitting import assert_ids
from tests.conftest import requires_root

pytestmark = requires_root

# ~0.8 s of CPU, counted by the process's own CPU clock: the work does not depend on the machine.
COMPUTE = """
import os, time

def work():
    assert len(os.sched_getaffinity(0)) == 1, os.sched_getaffinity(0)
    t = time.process_time()
    while time.process_time() - t < 0.8:
        pass
    return True
"""
SLEEP = "import time\n\ndef work():\n    time.sleep(120)\n    return True\n"
SPIN = "import os\n\ndef work():\n    assert len(os.sched_getaffinity(0)) == 1\n    while True:\n        pass\n"
TESTS = "assert work()\n"
# A stdio case of the same ~0.8 s of CPU.
STDIO = """
import os, time
assert len(os.sched_getaffinity(0)) == 1
t = time.process_time()
while time.process_time() - t < 0.8:
    pass
print(int(input()) * 2)
"""
# Hogs on the check's one CPU: 0.8 s of CPU then takes >= 11 s of wall, past the default wall
# limits below (2 x 2 + 5 = 9 s for a check; 3 x 1 + 2 = 5 s for a 1 s stdio case).
MANY = 13
FEW = 3


def asserts_check(source: str, limits: Limits) -> Check:
    return Check(style="asserts", program=source, tests=TESTS, expected_tests=tuple(assert_ids(TESTS)), limits=limits)


@contextlib.contextmanager
def hogs(n: int):
    """`n` busy loops, pinned where this process is (one CPU, see `pinned`)."""
    # Each in its own session: with autogroup scheduling (the kernel default) a session is one
    # group on the CPU, and a check (a session of its own) would get half the CPU against them all.
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.fixture(scope="module", params=["c", "python"])
def pinned(request):
    """A local backend whose workers (and this grader) run on one CPU only."""
    from rlvr_grade.sandbox.local import LocalBackend
    from rlvr_grade.sandbox.zygote import _c_setup

    if request.param == "c" and _c_setup() is None:
        pytest.skip("sandbox/_child.c is not built here (no compiler at install): the Python path is tested")
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    backend = LocalBackend(concurrency=1, c_setup=request.param == "c")
    try:
        backend.start()
        assert ("in C" in backend.isolation().get("setup", "")) == (request.param == "c")
        yield backend
    finally:
        backend.close()
        os.sched_setaffinity(0, allowed)


def test_a_correct_check_that_waits_for_a_cpu_is_not_stopped_for_wall(pinned):
    check = asserts_check(COMPUTE, Limits(cpu_s=2.0))  # default wall: 9 s
    with hogs(MANY):
        ex = pinned.run(check)
    outcome = score(check, ex, RewardConfig(), 0.0)
    assert (outcome.status, ex.limit_hit) == ("pass", None), (outcome, ex.wall_s, ex.stderr[-500:])
    assert ex.wall_s > check.limits.effective_wall_s  # it did wait past the plain wall limit
    assert ex.cpu_s < 2.0


def test_a_spinning_check_that_waits_for_a_cpu_is_still_stopped_at_its_cpu_limit(pinned):
    check = asserts_check(SPIN, Limits(cpu_s=0.5, wall_s=2.0))
    with hogs(FEW):
        ex = pinned.run(check)
    outcome = score(check, ex, RewardConfig(), 0.0)
    assert (outcome.status, ex.limit_hit) == ("timeout", "cpu"), (outcome, ex.wall_s, ex.cpu_s, ex.stderr[-500:])
    assert ex.cpu_s >= 0.5


def test_a_sleeping_check_is_still_stopped_at_its_wall_limit_under_load(pinned):
    check = asserts_check(SLEEP, Limits(cpu_s=1.0, wall_s=3.0))
    with hogs(FEW):
        ex = pinned.run(check)
    outcome = score(check, ex, RewardConfig(), 0.0)
    assert (outcome.status, ex.limit_hit) == ("timeout", "wall"), (outcome, ex.stderr[-500:])
    # Moved only by what its start-up waited for the CPU: nowhere near the cap (10 x 3 s).
    assert 3.0 <= ex.wall_s < 12.0, ex.wall_s


def test_a_stdio_case_that_waits_for_a_cpu_is_not_stopped_by_its_wall_limit(pinned):
    row = {"completion": STDIO, "tests": json.dumps([{"input": "21\n", "output": "42\n"}])}
    opts = CheckOptions(case_timeout=1.0, limits=Limits(cpu_s=5.0))  # a case: 1 s CPU, 5 s wall
    check = build_check(Rollout(0, row), opts)
    assert check.style == "stdio"
    with hogs(MANY):
        ex = pinned.run(check)
    outcome = score(check, ex, RewardConfig(), 0.0)
    assert outcome.status == "pass", (outcome, [(r.outcome, r.message) for r in ex.records], ex.stderr[-500:])


@pytest.mark.skipif(shutil.which("runsc") is None, reason="needs runsc (apt-get install runsc; .ci/run installs it)")
def test_the_gvisor_sandboxs_own_deadline_moves_by_what_runsc_waited_for_a_cpu():
    # The host-side deadline (wall limit + grace; no grace here) of a sandbox whose start-up
    # waited behind busy loops on its one CPU: a sandbox_error before, the check's pass now.
    from rlvr_grade.sandbox.gvisor import GvisorBackend

    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    backend = GvisorBackend(concurrency=1, grace_s=0.0)
    try:
        backend.start()
        check = asserts_check("def work():\n    return True\n", Limits(cpu_s=1.0, wall_s=3.0))
        with hogs(6):
            ex = backend.run(check)
        assert [r.outcome for r in ex.records] == ["passed"] and ex.limit_hit is None, ex
    finally:
        backend.close()
        os.sched_setaffinity(0, allowed)


def test_userns_mode_a_correct_check_that_waits_for_a_cpu_is_not_stopped_for_wall():
    # userns mode has no cgroup: the check's own threads' run delay, read through the host's
    # /proc by a worker that is pid 1 of its own pid namespace (process._proc_pid).
    from rlvr_grade.sandbox.local import LocalBackend

    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    backend = LocalBackend(concurrency=1, mode="userns")
    try:
        backend.start()
        check = asserts_check(COMPUTE, Limits(cpu_s=2.0))
        with hogs(MANY):
            ex = backend.run(check)
        outcome = score(check, ex, RewardConfig(), 0.0)
        assert (outcome.status, ex.limit_hit) == ("pass", None), (outcome, ex.wall_s, ex.stderr[-500:])
    finally:
        backend.close()
        os.sched_setaffinity(0, allowed)
