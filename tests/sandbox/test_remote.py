"""The remote runner (sandbox/remote.py) and the backend registry, through a backend that only
moves bytes: it runs the real inner runner as a local process. gVisor and Beam are this plus
their transport (tests/sandbox/test_gvisor.py, tests/sandbox/test_beam.py run those)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.sandbox import _REGISTRY, make_backend, register_backend
from rlvr_grade.sandbox.remote import RemoteBackend, Reply, Request
from rlvr_grade.types import Limits, Rollout, SandboxError

RUNNER = [sys.executable, "-s", "-m", "rlvr_grade.sandbox.inner", "--request", "-", "--mode", "light"]


class ProcessBackend(RemoteBackend):
    """The inner runner in a plain child process (a test stand-in for a sandbox)."""

    name = "process"

    def __init__(self, concurrency: int = 0, argv: list[str] | None = None, hide: object = None):
        super().__init__()
        self.argv = argv or RUNNER
        self.grace_s = 5.0

    def exchange(self, check, request: Request) -> Reply:
        try:
            p = subprocess.run(self.argv, input=request.encoded(), capture_output=True, timeout=request.deadline_s)
        except subprocess.TimeoutExpired:
            return Reply(None, "")
        return Reply(p.returncode, p.stdout.decode(), p.stderr.decode())


@pytest.fixture
def registered():
    register_backend("process", ProcessBackend)
    yield
    _REGISTRY.pop("process", None)


def _check(completion: str = "def f():\n    return 1\n", tests: str = "assert f() == 1\n"):
    return build_check(Rollout(0, {"completion": completion, "tests": tests}), CheckOptions(limits=Limits(cpu_s=5.0)))


def test_a_registered_backend_grades_through_the_library(registered):
    # Fails with an if-chain in make_backend, or api.py special-casing backends by name.
    rows = [{"completion": "def f():\n    return 1\n", "tests": "assert f() == 1\n"},
            {"completion": "def f():\n    return 2\n", "tests": "assert f() == 1\n"}]
    with Grader(ScoreOptions(backend="process", concurrency=1)) as g:
        got = [o.status for o in g.grade(rows)]
    assert got == ["pass", "fail"]


def test_an_unknown_backend_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown backend 'nope'; choose from local, gvisor, beam"):
        make_backend("nope", 1)


def _script(body: str) -> list[str]:
    return [sys.executable, "-c", "import json, sys\nreq = json.loads(sys.stdin.read())\n" + body]


@pytest.mark.parametrize(("body", "message"), [
    ("print('boom', file=sys.stderr); sys.exit(3)", "process: the runner exited 3 without a result: boom"),
    # a result line for another request (a forged or stale token) is no result
    ("print('RLVR-RESULT ' + 'f' * 32 + ' {}'); sys.exit(0)", "process: the runner exited 0 without a result"),
    ("print('RLVR-RESULT', req['token'], json.dumps({'sandbox_error': 'no room'}))", "process runner: no room"),
    ("import time; time.sleep(60)", "process: the runner did not finish within"),
])
def test_every_way_a_runner_fails_is_a_sandbox_error(body, message):
    backend = ProcessBackend(argv=_script(body))
    check = build_check(Rollout(0, {"completion": "", "tests": "assert True\n"}), CheckOptions(limits=Limits(cpu_s=1.0, wall_s=1.0)))
    with pytest.raises(SandboxError, match=message.replace("(", r"\(")):
        backend.run(check)


def test_the_request_carries_the_checks_payload_limits_and_a_fresh_token():
    backend = ProcessBackend()
    check = _check()
    a, b = backend.request(check), backend.request(check)
    assert a.token != b.token and len(a.token) == 32
    body = json.loads(a.encoded())
    assert body["payload"] == json.loads(json.dumps(check.payload().to_wire()))
    assert body["limits"]["wall_s"] == check.limits.effective_wall_s and "uid" not in body
    assert a.deadline_s == check.limits.effective_wall_s + backend.grace_s
    assert a.answered(f"x\nRLVR-RESULT {a.token} {{}}\n") and not a.answered(f"RLVR-RESULT {b.token} {{}}")
