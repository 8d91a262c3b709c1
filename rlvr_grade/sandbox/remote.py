"""The remote runner: what every backend whose sandboxes run the one-shot inner runner
(sandbox/inner.py) shares. The request (the check's payload, its limits, a fresh token, the
grader's seccomp program), the deadline, reading the result line and every error it can end in
are here once; a backend (gvisor.py, beam.py) only moves bytes: `exchange` hands the request to
a fresh sandbox and returns what the runner wrote."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import asdict, dataclass
from typing import Any

from rlvr_grade.boundary import execution_from_wire
from rlvr_grade.sandbox.base import Backend
from rlvr_grade.sandbox.inner import RESULT_MARK, parse_result
from rlvr_grade.types import Check, Execution, SandboxError


@dataclass(frozen=True)
class Request:
    """One check's request to the inner runner, and the bound on how long moving it may take."""

    body: dict[str, Any]
    token: str
    deadline_s: float  # the check's wall backstop + the backend's grace: then it is killed

    def encoded(self) -> bytes:
        return json.dumps(self.body).encode()

    def answered(self, stdout: str) -> bool:
        """Whether `stdout` holds this request's result line (then stderr is not needed)."""
        return f"{RESULT_MARK} {self.token} " in stdout


@dataclass(frozen=True)
class Reply:
    """What came back: the runner's exit code (None: killed at the deadline), its stdout, and
    its stderr (a backend may leave it empty when the request was answered: with Beam,
    reading it is one more call)."""

    code: int | None
    stdout: str
    stderr: str = ""


class RemoteBackend(Backend):
    """A backend that runs each check through the inner runner in a sandbox of its own.
    Subclasses set `name`, `grace_s`, optionally `runner_uid`, and implement `exchange`."""

    grace_s: float = 20.0
    runner_uid: int | None = None  # a uid for the runner to drop to (None: the runner's default)

    def __init__(self) -> None:
        self._filter_lock = threading.Lock()
        self._filter: dict[str, Any] | None | bool = False  # False: not compiled yet

    def seccomp_filter(self) -> dict[str, Any] | None:
        """The local backend's syscall allowlist, with the result channel's guard, compiled
        here once for the runner to load before candidate code (gVisor and Beam's runtimes
        implement seccomp for what runs in them); None without libseccomp on this machine."""
        with self._filter_lock:
            if self._filter is False:
                from rlvr_grade.sandbox import seccomp
                from rlvr_grade.sandbox.zygote import channel_descriptor

                try:
                    self._filter = seccomp.compile_filter(channel_descriptor()).portable()
                except seccomp.SeccompUnavailable:
                    self._filter = None
            return self._filter  # type: ignore[return-value]

    def request(self, check: Check) -> Request:
        limits = asdict(check.limits)
        limits["wall_s"] = check.limits.effective_wall_s
        token = secrets.token_hex(16)
        body: dict[str, Any] = {"payload": check.payload(), "limits": limits, "token": token,
                                "seccomp": self.seccomp_filter()}
        if self.runner_uid is not None:
            body["uid"] = self.runner_uid
        return Request(body, token, check.limits.effective_wall_s + self.grace_s)

    def exchange(self, check: Check, request: Request) -> Reply:
        """Run the inner runner on `request` in a fresh sandbox and return what it wrote, or
        code None after killing it at request.deadline_s. Raises SandboxError when the
        sandbox itself failed."""
        raise NotImplementedError

    def run(self, check: Check) -> Execution:
        request = self.request(check)
        reply = self.exchange(check, request)
        if reply.code is None:
            raise SandboxError(f"{self.name}: the runner did not finish within {request.deadline_s:.0f} s; killed")
        resp = parse_result(reply.stdout, request.token)
        if resp is None:
            said = (reply.stderr or reply.stdout).strip()[-400:]
            raise SandboxError(f"{self.name}: the runner exited {reply.code} without a result: {said}")
        if "sandbox_error" in resp:
            raise SandboxError(f"{self.name} runner: {resp['sandbox_error']}")
        return execution_from_wire(resp, check.limits)
