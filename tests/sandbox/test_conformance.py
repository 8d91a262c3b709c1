"""ONE conformance suite, run against every backend: local (namespaces), gvisor (runsc) and
beam (the real beam-client against the fake gateway in tests/fake_beam). Same rows, same
expected verdicts; small limits so the whole suite stays quick."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import threading
import time

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.types import Limits, Rollout

# CPU 5 s: gVisor's ptrace platform bills a loaded host's scheduling delays as CPU time (a
# pytest check measured 0.5 s quiet, >1 s with the machine busy); the timeout case uses TIGHT.
LIMITS = Limits(cpu_s=5.0, wall_s=15.0, memory_mb=256, processes=32, output_bytes=4096)
TIGHT = Limits(cpu_s=1.0, wall_s=4.0, memory_mb=256, processes=32, output_bytes=4096)
# beam-snapshot: Beam with memory snapshots (each check restored from a warm seed's snapshot;
# the fake gateway restores processes by running them again), held to the same verdicts.
BACKEND_NAMES = ("local", "gvisor", "beam", "beam-snapshot")


def _skip_reason(name: str) -> str | None:
    if os.geteuid() != 0:
        return "the sandboxes need root here"
    if name == "gvisor" and shutil.which("runsc") is None:
        return "runsc (gVisor) is not installed: apt-get install runsc (.ci/run does)"
    if name.startswith("beam"):
        import importlib.util

        if importlib.util.find_spec("beam") is None:
            return "beam-client is not installed: pip install 'rlvr-grade[beam]'"
    return None


class Harness:
    """A backend plus what it takes to kill its infrastructure mid-check."""

    def __init__(self, name: str):
        self.name = name
        self.gateway = None
        self.backend = self._make()

    def _make(self):
        if self.name == "local":
            from rlvr_grade.sandbox.local import LocalBackend

            return LocalBackend(concurrency=2)
        if self.name == "gvisor":
            from rlvr_grade.sandbox.gvisor import GvisorBackend

            return GvisorBackend(concurrency=2, grace_s=10)
        from rlvr_grade.sandbox.beam import BeamBackend
        from tests.fake_beam import FakeGateway

        self.gateway = FakeGateway().start()
        return BeamBackend(concurrency=4, context=self.gateway.context(), rpc_timeout=5, grace_s=10, poll_s=0.05,
                           snapshot=self.name == "beam-snapshot")

    def kill_infrastructure(self) -> None:
        """What "the backend dies" means for each: the worker, the runsc, the gateway."""
        if self.name == "local":
            for slot in self.backend._slots:
                if slot.proc is not None:
                    slot.proc.kill()
        elif self.name == "gvisor":
            for proc in list(self.backend._procs.values()):
                os.killpg(proc.pid, signal.SIGKILL)
        else:
            self.gateway.stop()

    def close(self) -> None:
        self.backend.close()
        if self.gateway is not None:
            self.gateway.stop()


@pytest.fixture(scope="module", params=BACKEND_NAMES)
def harness(request):
    reason = _skip_reason(request.param)
    if reason:
        pytest.skip(reason)
    h = Harness(request.param)
    h.backend.start()
    yield h
    h.close()


def grader_for(backend, retries: int = 2, limits: Limits = LIMITS) -> Grader:
    opts = ScoreOptions(checks=CheckOptions(limits=limits), retries=retries, retry_delay=0.05)
    return Grader(opts, backend=backend).start()


def grade(harness: Harness, completion: str, tests: str, limits: Limits = LIMITS):
    return grader_for(harness.backend, limits=limits).grade_rollout(Rollout(index=0, row={"completion": completion, "tests": tests}))


def run_check(harness: Harness, completion: str, tests: str):
    check = build_check(Rollout(index=0, row={"completion": completion, "tests": tests}), CheckOptions(limits=LIMITS))
    return harness.backend.run(check)


ADD = "def add(a, b):\n    return a + b\n"
PYTEST_ADD = "from solution import add\n\ndef test_one():\n    assert add(1, 2) == 3\n\ndef test_two():\n    assert add(0, 0) == 0\n"
SPIN = "def add(a, b):\n    while True:\n        pass\n"
HOG = "def add(a, b):\n    x = bytearray(1 << 30)\n    x[::4096] = b'1' * len(x[::4096])\n    return a + b\n"
BOMB = "import os\ndef add(a, b):\n    while True:\n        os.fork()\n"
FLOOD = "print('x' * 200000)\n" + ADD
PLANT = (
    "import os\n"
    "def plant():\n"
    "    n = 0\n"
    "    for d in ('/tmp', os.getcwd(), os.path.expanduser('~'), '/dev/shm'):\n"
    "        try:\n"
    "            open(os.path.join(d, 'rlvr_conformance_marker'), 'w').write('x')\n"
    "            n += 1\n"
    "        except OSError:\n"
    "            pass\n"
    "    return n\n"
)
SEEN = (
    "import os\n"
    "def seen():\n"
    "    return [d for d in ('/tmp', os.getcwd(), os.path.expanduser('~'), '/dev/shm')\n"
    "            if os.path.exists(os.path.join(d, 'rlvr_conformance_marker'))]\n"
)


def reach(port: int) -> str:
    """A completion whose reach() says whether 127.0.0.1:`port` answered."""
    return ("import socket\n"
            "def reach():\n"
            "    try:\n"
            f"        socket.create_connection(('127.0.0.1', {port}), timeout=2).close()\n"
            "        return 'connected'\n"
            "    except OSError:\n"
            "        return 'blocked'\n")


# The rows above as (name, completion, tests, limits): what tests/sandbox/test_adversarial.py runs
# through both set-up paths of the local sandbox to compare (the network row needs a port).
ROWS = (
    ("pass", ADD, "assert add(1, 2) == 3\nassert add(2, 2) == 4\n", LIMITS),
    ("pytest_pass", ADD, PYTEST_ADD, LIMITS),
    ("fail", "def add(a, b):\n    return a - b\n", "assert add(1, 2) == 3\n", LIMITS),
    ("timeout", SPIN, "assert add(1, 2) == 3\n", TIGHT),
    ("memory_limit", HOG, "assert add(1, 2) == 3\n", LIMITS),
    ("fork_bomb", BOMB, "assert add(1, 2) == 3\n", TIGHT),
    ("output_cap", FLOOD, "assert add(1, 2) == 3\n", LIMITS),
    ("files_planted", PLANT, "assert plant() >= 1\n", LIMITS),
    ("files_seen", SEEN, "assert seen() == []\n", LIMITS),
)


def test_pass(harness):
    out = grade(harness, ADD, "assert add(1, 2) == 3\nassert add(2, 2) == 4\n")
    assert (out.status, out.reward, out.tests_passed, out.tests_total) == ("pass", 1.0, 2, 2)


def test_pytest_style_pass(harness):
    out = grade(harness, ADD, PYTEST_ADD)
    assert (out.status, out.tests_passed, out.tests_total) == ("pass", 2, 2), out


UNITTEST_ADD = ("import unittest\nfrom solution import add\n\n\nclass TestAdd(unittest.TestCase):\n"
                "    @classmethod\n    def setUpClass(cls):\n        cls.base = 1\n\n"
                "    def test_one(self):\n        self.assertEqual(add(self.base, 2), 3)\n")


def test_unittest_style_pass(harness):
    # pytest runs a TestCase through fixtures of its unittest plugin: under gVisor that plugin
    # was first imported inside the check, a late library whose fixtures the recorder refuses
    # (runtime_error for every TestCase row; red team rty).
    out = grade(harness, ADD, UNITTEST_ADD)
    assert (out.status, out.tests_passed, out.tests_total) == ("pass", 1, 1), out


POOL_ADD = ("import multiprocessing\n\n\ndef _one(p):\n    return p[0] + p[1]\n\n\n"
            "def add(a, b):\n    with multiprocessing.get_context('fork').Pool(2) as pool:\n"
            "        return pool.map(_one, [(a, b)])[0]\n")


def test_multiprocessing_pool_runs(harness):
    # A process pool needs a writable /dev/shm (its semaphores): honest code that uses one
    # scored runtime_error 0 under gVisor, whose /dev/shm is root's 0755 (red team rty); the
    # runner now links it to a folder of the check's /tmp (inner._shm_in_tmp).
    out = grade(harness, POOL_ADD, "assert add(1, 2) == 3\n")
    assert (out.status, out.reward) == ("pass", 1.0), out


# A program whose generator body rewrites the calendar's table while the tests' max() iterates it:
# no call of the program's is there to fence, only its frame, which the frame fence (the harness's
# C extension rlvr_harness/_dictver.c) sees. Beam gets the extension in the archive it unpacks
# (sandbox/bundle.py), gVisor in its /harness; without it this scored 1.0 on Beam.
GENERATOR_REWRITES_TABLE = "import calendar\n\n\ndef f(year, month):\n    calendar.mdays[1:] = [28] * 12\n    yield from range(1, 29)\n"
MAX_OF_DAYS = ("import calendar\n\n\ndef check(candidate):\n    assert max(candidate(2023, 2)) == 28\n"
               "    assert max(candidate(2023, 1)) == calendar.monthrange(2023, 1)[1]\n\n\ncheck(f)\n")


def test_the_harness_defences_in_c_hold_in_every_backend(harness):
    out = grade(harness, GENERATOR_REWRITES_TABLE, MAX_OF_DAYS)
    assert (out.status, out.reward) == ("fail", 0.0), out


# A row's random numbers are its own (rlvr_harness/seeding.py): a case's draws come from the seed
# derived from the row's tests and program, the same in every backend; a set of strings iterates
# as under PYTHONHASHSEED=0; the tests' draws (coin flips here) give the same verdicts every run.
DRAWS = "import random\nprint(random.getrandbits(64), set('the quick brown fox jumps over the lazy dog'.split()))\n"
FLIPS = "import random\n" + "assert random.random() < 0.5\n" * 16


def test_random_draws_are_the_rows_own_in_every_backend(harness):
    import random
    import subprocess
    import sys

    from rlvr_harness import seeding

    check = build_check(Rollout(index=0, row={"completion": DRAWS, "tests": [{"input": "", "output": ""}]}),
                        CheckOptions(limits=LIMITS))
    ex = harness.backend.run(check)
    draw = random.Random(seeding.case_seed(seeding.seeds(check.payload()).program, 0)).getrandbits(64)
    words = subprocess.run([sys.executable, "-c", DRAWS.split("\n")[1].replace("random.getrandbits(64), ", "")],
                           env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, check=True).stdout
    assert [r.output for r in ex.records] == [f"{draw} {words}"], ex
    runs = [[(r.id, r.outcome) for r in run_check(harness, "", FLIPS).records] for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) == 16, runs


def test_fail(harness):
    out = grade(harness, "def add(a, b):\n    return a - b\n", "assert add(1, 2) == 3\n")
    assert (out.status, out.reward) == ("fail", 0.0)


def test_timeout(harness):
    out = grade(harness, SPIN, "assert add(1, 2) == 3\n", TIGHT)
    assert (out.status, out.reward) == ("timeout", 0.0), out


def test_memory_limit(harness):
    out = grade(harness, HOG, "assert add(1, 2) == 3\n")
    assert (out.status, out.reward) == ("memory_limit", 0.0), out


def test_network_blocked(harness):
    # A listener on the host's loopback: a sandboxed check must not reach it (nor anything).
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    port = srv.getsockname()[1]
    try:
        out = grade(harness, reach(port), "assert reach() == 'blocked'\n")
    finally:
        srv.close()
    assert out.status == "pass", out


def test_fork_bomb_is_contained_and_the_next_check_runs(harness):
    out = grade(harness, BOMB, "assert add(1, 2) == 3\n", TIGHT)
    # memory_limit: under gVisor each forked interpreter holds ~9-11 MiB of the sandbox's memory
    # (measured in its host cgroup), and 32 of them may meet the sandbox's cap first.
    assert out.status in ("runtime_error", "timeout", "fail", "memory_limit"), out
    assert out.reward == 0.0
    after = grade(harness, ADD, "assert add(1, 2) == 3\n")
    assert after.status == "pass", after


def test_output_past_the_cap_stops_the_check_and_fails_it(harness):
    out = grade(harness, FLOOD, "assert add(1, 2) == 3\n")
    assert (out.status, out.reward) == ("fail", 0.0)
    assert out.error == f"output limit exceeded ({LIMITS.output_bytes} bytes)"
    ex = run_check(harness, "print('x' * 4000)\n" + ADD, "assert add(1, 2) == 3\n")  # under it: untouched
    assert not ex.output_truncated and ex.done and all(r.outcome == "passed" for r in ex.records)


def test_files_do_not_survive_between_checks(harness):
    first = grade(harness, PLANT, "assert plant() >= 1\n")
    assert first.status == "pass", first  # at least one place was writable, so the test means something
    second = grade(harness, SEEN, "assert seen() == []\n")
    assert second.status == "pass", second


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_dead_backend_is_sandbox_error_not_a_zero(name):
    """Kill the infrastructure while a check runs: the row is sandbox_error with a null reward.
    Each kind gets its own backend here, since this one is broken on purpose."""
    reason = _skip_reason(name)
    if reason:
        pytest.skip(reason)
    h = Harness(name)
    h.backend.start()
    try:
        grader = grader_for(h.backend, retries=1)
        slow = "import time\ndef add(a, b):\n    time.sleep(4)\n    return a + b\n"
        rollout = Rollout(index=0, row={"completion": slow, "tests": "assert add(1, 2) == 3\n"})
        result = {}
        t = threading.Thread(target=lambda: result.setdefault("out", grader.grade_rollout(rollout)))
        t.start()
        time.sleep(1.5)
        h.kill_infrastructure()
        t.join(60)
        out = result["out"]
        assert (out.status, out.reward) == ("sandbox_error", None), out
    finally:
        h.close()


def test_the_snapshot_path_ran(harness):
    """Last of the module: with snapshots on, the checks above ran in restored warm seeds."""
    if harness.name != "beam-snapshot":
        pytest.skip("only beam-snapshot restores snapshots")
    stats = harness.backend.stats
    assert stats["snapshot_checks"] > 0 and stats["snapshot_fallbacks"] == 0, stats
