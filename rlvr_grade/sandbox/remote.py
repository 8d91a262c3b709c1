"""The remote runner: what every backend whose sandboxes run the one-shot inner runner
(sandbox/inner.py) shares. The request (the check's payload, its limits, a fresh token, the
grader's seccomp program), the deadline, reading the result line and every error it can end in
are here once; a backend (gvisor.py, beam.py) only moves bytes: `exchange` hands the request to
a fresh sandbox and returns what the runner wrote."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, replace
from typing import Any

from rlvr_grade.boundary import execution_from_wire
from rlvr_grade.sandbox.base import Backend
from rlvr_grade.sandbox.inner import RESULT_MARK, parse_result
from rlvr_grade.types import Check, Execution, SandboxError
from rlvr_harness.limits import LimitHit, limit_hit
from rlvr_harness.wire import CheckRequest


@dataclass(frozen=True)
class Request:
    """One check's request to the inner runner, and the bound on how long moving it may take."""

    message: CheckRequest
    deadline_s: float  # the check's wall backstop + the backend's grace: then it is killed

    @property
    def token(self) -> str:
        return self.message.token

    def encoded(self) -> bytes:
        return json.dumps(self.message.to_wire()).encode()

    def answered(self, stdout: str) -> bool:
        """Whether `stdout` holds this request's result line (then stderr is not needed)."""
        return f"{RESULT_MARK} {self.token} " in stdout


@dataclass(frozen=True)
class Around:
    """What a backend measured around the whole sandbox (the gVisor backend's host cgroup
    around runsc: every process of it, the sandbox kernel's own memory and buffers included),
    as opposed to what the runner inside saw of the check's processes."""

    cpu_s: float  # CPU the whole sandbox spent since the check's process was made
    cpu_limit: float  # what it may spend in that time (the check's limit and the kernel's share)
    oom: bool  # the kernel killed a process of it at its memory cap
    peak_memory_mb: float  # the sandbox's peak (0: not raised above an earlier check's)
    wall_s: float

    @property
    def limit_hit(self) -> LimitHit | None:
        """The limit the sandbox as a whole went past (the one rule, rlvr_harness/limits.py)."""
        hit = limit_hit(cpu_s=self.cpu_s, cpu_limit=self.cpu_limit, sig=None, memory=self.oom)
        return hit if hit in ("memory", "cpu") else None


@dataclass(frozen=True)
class Reply:
    """What came back: the runner's exit code (None: killed at the deadline), its stdout, and
    its stderr (a backend may leave it empty when the request was answered: with Beam,
    reading it is one more call); `around`, where the backend measures the whole sandbox."""

    code: int | None
    stdout: str
    stderr: str = ""
    around: Around | None = None


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
        implement seccomp for what runs in them); None on an architecture without a syscall table."""
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
        message = replace(check.request(), token=secrets.token_hex(16), seccomp=self.seccomp_filter(),
                          uid=self.runner_uid)
        return Request(message, check.limits.effective_wall_s + self.grace_s)

    def exchange(self, check: Check, request: Request) -> Reply:
        """Run the inner runner on `request` in a fresh sandbox and return what it wrote, or
        code None after killing it at request.deadline_s. Raises SandboxError when the
        sandbox itself failed."""
        raise NotImplementedError

    def run(self, check: Check) -> Execution:
        request = self.request(check)
        reply = self.exchange(check, request)
        over = reply.around.limit_hit if reply.around is not None else None
        if over is not None:
            return _past_a_limit(reply, request, check, over)
        if reply.code is None:
            raise SandboxError(f"{self.name}: the runner did not finish within {request.deadline_s:.0f} s; killed")
        resp = parse_result(reply.stdout, request.token)
        if resp is None:
            said = (reply.stderr or reply.stdout).strip()[-400:]
            raise SandboxError(f"{self.name}: the runner exited {reply.code} without a result: {said}")
        if "sandbox_error" in resp:
            raise SandboxError(f"{self.name} runner: {resp['sandbox_error']}")
        return execution_from_wire(resp, check.limits)


def _past_a_limit(reply: Reply, request: Request, check: Check, over: LimitHit) -> Execution:
    """The check's Execution when the whole sandbox went past a limit (`over`): whatever the
    runner reported (if it got to), the check cannot pass. A limit the runner itself saw
    stopping the check stays the one reported."""
    import dataclasses
    import signal

    assert reply.around is not None
    resp = parse_result(reply.stdout, request.token)
    if resp is not None and "sandbox_error" not in resp:
        try:
            ex = execution_from_wire(resp, check.limits)
        except ValueError:
            ex = None
        if ex is not None:
            return dataclasses.replace(ex, limit_hit=ex.limit_hit or over,
                                       peak_memory_mb=max(ex.peak_memory_mb, reply.around.peak_memory_mb))
    return Execution(exit_code=None, signal=int(signal.SIGKILL), stdout="", stderr="", cpu_s=reply.around.cpu_s,
                     wall_s=reply.around.wall_s, peak_memory_mb=reply.around.peak_memory_mb, limit_hit=over, records=(),
                     done=False)
