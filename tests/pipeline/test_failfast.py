"""A dead backend stops the run (pool.BackendHealth): quickly, naming the cause, keeping what
was graded; a row that breaks its own checks does not. The Beam gateway dying for real is in
test_beam.py."""

from __future__ import annotations

import threading

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.pool import BackendHealth, with_retries
from rlvr_grade.sandbox.base import Backend
from rlvr_grade.types import BackendUnavailable, SandboxError


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def failing() -> None:
    raise SandboxError("gateway 10.0.0.1:1 unreachable")


def test_a_streak_of_failures_with_a_failing_probe_stops_everything():
    health = BackendHealth("beam", max_failures=5, dead_after_s=0, probe=failing)
    for _ in range(4):
        health.failed(SandboxError("x"))
        health.check()  # not yet
    health.failed(SandboxError("x"))
    with pytest.raises(BackendUnavailable, match=r"gateway 10.0.0.1:1 unreachable \(5 checks failed in a row"):
        health.check()
    assert health.probes == 1


def test_a_probe_that_passes_means_the_rows_failed_not_the_backend():
    probes = []
    health = BackendHealth("local", max_failures=3, dead_after_s=0, probe=lambda: probes.append(1))
    for _ in range(10):
        health.failed(SandboxError("this row kills its worker"))
    health.check()  # never tripped: every third failure was followed by a passing probe
    assert len(probes) == 3


def test_a_success_ends_the_streak():
    health = BackendHealth("local", max_failures=3, dead_after_s=0, probe=failing)
    for _ in range(5):
        health.failed(SandboxError("x"))
        health.failed(SandboxError("x"))
        health.succeeded()
    health.check()
    assert health.probes == 0


def test_failures_for_the_dead_after_time_stop_the_run_whatever_their_number():
    clock = Clock()
    health = BackendHealth("beam", max_failures=0, dead_after_s=30, probe=failing, clock=clock)
    health.succeeded()
    clock.t += 5
    # A check in flight when the backend died fails only at its own timeout: it began at 105.
    clock.t = 135
    health.failed(SandboxError("status: deadline"), started=105)
    health.check()  # one failure is not a streak
    clock.t = 136
    health.failed(SandboxError("create: refused"), started=134)
    with pytest.raises(BackendUnavailable, match="2 checks failed in a row over 31 s"):
        health.check()


def test_zero_disables_both_rules():
    clock = Clock()
    health = BackendHealth("beam", max_failures=0, dead_after_s=0, probe=failing, clock=clock)
    for _ in range(1000):
        clock.t += 1
        health.failed(SandboxError("x"))
    health.check()


def test_retries_stop_and_sleeps_end_once_the_backend_is_down():
    health = BackendHealth("beam", max_failures=2, dead_after_s=0, probe=failing)
    calls = []

    def run() -> None:
        calls.append(1)
        raise SandboxError("refused")

    with pytest.raises(SandboxError):
        with_retries(run, attempts=1, health=health)
    done = threading.Event()
    sleeper = threading.Thread(target=lambda: (health.pause(60), done.set()))
    sleeper.start()
    with pytest.raises(BackendUnavailable):  # the second failure trips: no third attempt
        with_retries(run, attempts=5, base_delay=0.01, health=health)
    assert len(calls) == 2
    assert done.wait(10)  # a retry sleeping elsewhere wakes up at once
    with pytest.raises(BackendUnavailable):
        with_retries(run, attempts=5, health=health)
    assert len(calls) == 2  # not even attempted


class Flaky(Backend):
    """The real local backend, made to fail (as a broken or dead backend would) for chosen
    programs, or for everything once `dead` is set."""

    name = "local"

    def __init__(self, inner: Backend, poison: str = "POISON"):
        self.inner, self.poison, self.dead = inner, poison, False

    def start(self) -> None:
        pass  # the module's backend, started once

    def close(self) -> None:
        pass

    def fingerprint(self):
        return self.inner.fingerprint()

    def isolation(self):
        return self.inner.isolation()

    def run(self, check):
        if self.dead:
            raise SandboxError("local sandbox slot 0: worker died")
        if self.poison in check.program:
            raise SandboxError("local sandbox slot 0: worker died")
        return self.inner.run(check)


ROW = {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1\n"}


@pytest.fixture(scope="module")
def sandbox_backend():
    from rlvr_grade.sandbox.local import LocalBackend

    backend = LocalBackend(concurrency=2)
    backend.start()
    yield backend
    backend.close()


def test_rows_that_break_their_own_checks_do_not_stop_the_run(sandbox_backend):
    rows = [{**ROW, "completion": ROW["completion"] + f"# POISON {i}\n"} for i in range(12)] + [ROW]
    grader = Grader(ScoreOptions(retries=2, retry_delay=0.0, max_infra_failures=5, concurrency=2),
                    backend=Flaky(sandbox_backend))
    with grader:
        outcomes = grader.grade(rows)
    assert [o.status for o in outcomes] == ["sandbox_error"] * 12 + ["pass"]
    assert all(o.reward is None for o in outcomes[:12])
    assert grader.health.probes >= 1  # the streak reached 5: the backend was asked, and answered


def test_a_dead_backend_ends_grade_with_backend_unavailable_and_the_next_call_tries_again(sandbox_backend):
    flaky = Flaky(sandbox_backend)
    grader = Grader(ScoreOptions(retries=3, retry_delay=0.0, max_infra_failures=4, concurrency=2), backend=flaky)
    with grader:
        assert [o.status for o in grader.grade([ROW])] == ["pass"]
        flaky.dead = True
        rows = [{**ROW, "completion": ROW["completion"] + f"# {i}\n"} for i in range(40)]
        with pytest.raises(BackendUnavailable, match="worker died .*4 checks failed in a row"):
            grader.grade(rows)
        flaky.dead = False
        assert [o.status for o in grader.grade(rows[:3])] == ["pass"] * 3
