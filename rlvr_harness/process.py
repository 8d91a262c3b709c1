"""The one process runner: spawn a process, drain its output under caps, stop it at its limits,
reap it. Every test style and backend runs untrusted code through `collect`: the local worker
(sandbox/zygote.py) for a whole check, whatever its style, in the local backend and in the
runner inside gVisor and Beam (sandbox/inner.py); and each stdio/call/validate case's process
inside a check (`spawn` then `collect`, from rlvr_harness/stdio.py). Which limit stopped a run is
decided by rlvr_harness/limits.py `limit_hit`, from what `collect` returns.

Sealed: the standard library only (the harness runs inside the sandbox)."""

from __future__ import annotations

import os
import resource
import select
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Iterable

from rlvr_harness.limits import case_rlimits

READ_CHUNK = 65536
INF = float("inf")
FD_END = 65536  # spawn closes every descriptor below this but the ones it hands on
# The wall deadline moves by the time a run waited for a CPU (collect), up to this x its wall limit.
WALL_STRETCH = 10.0
STRETCH_STEP_S = 0.05  # a moved deadline is looked at again no sooner than this

# The result channel's descriptor in this process, once the check's entry names it
# (sandbox/zygote.py run_harness). The seccomp guard refuses closing it and any close_range
# spanning it (sandbox/seccomp.py channel_guard), so spawn closes around it: see _close_from.
CHANNEL: list[int | None] = [None]


@dataclass
class Stream:
    """One descriptor `collect` drains (non-blocking from then on). At most `cap` bytes are kept;
    reading past `cap` is an output-limit stop of the process when `stops` (a judge's OLE: the
    process is killed at once, not left writing while its output is thrown away). `read` (default
    os.read) returns (bytes, own): bytes a reader names as not the process's own (another writer
    on a shared channel) count toward the cap and in `foreign`, and are never kept. `close`: the
    collector closes the descriptor when done (else it is the caller's)."""

    fd: int
    cap: int
    stops: bool = True
    read: Callable[[int], tuple[bytes, bool]] | None = None
    close: bool = True
    data: bytearray = field(default_factory=bytearray)
    total: int = 0
    foreign: int = 0
    eof: bool = False

    def drain(self) -> tuple[int, bool]:
        """Read what is there now: (bytes read, went past its cap). Sets `eof` at the end."""
        got = 0
        over = False
        while True:
            try:
                if self.read is not None:
                    chunk, own = self.read(self.fd)
                else:
                    chunk, own = os.read(self.fd, READ_CHUNK), True
            except BlockingIOError:
                break
            if not chunk:
                self.eof = True
                break
            got += len(chunk)
            self.total += len(chunk)
            if not own:
                self.foreign += len(chunk)
            else:
                room = self.cap - len(self.data)
                if room > 0:
                    self.data += chunk[:room]
            if self.total > self.cap:
                over = True
        return got, over


@dataclass
class Collected:
    """How a collected process ended. `cpu_s`: rusage user + system, or the `cpu_used` watcher's
    reading when larger (a cgroup counts daemons and unreaped children too)."""

    status: int
    cpu_s: float
    wall_s: float
    max_rss_kb: int
    killed_for_cpu: bool
    killed_for_wall: bool
    killed_for_output: bool  # a stopping stream went past its cap: stopped, ended or not
    cpu_watched: bool = False  # `cpu_used` read the CPU at the end (a cgroup counted it)
    waited_s: float = 0.0  # how much later than t0 + wall_s the wall deadline was moved (`waited`)

    @property
    def exit_code(self) -> int | None:
        return os.WEXITSTATUS(self.status) if os.WIFEXITED(self.status) else None

    @property
    def signal(self) -> int | None:
        return os.WTERMSIG(self.status) if os.WIFSIGNALED(self.status) else None


def collect(pid: int, streams: list[Stream], *, t0: float, wall_s: float, kill: Callable[[], None],
            cpu_limit: float = INF, cpu_used: Callable[[], float | None] | None = None, ncpu: int = 1,
            waited: Callable[[], float | None] | None = None, linger_s: float = 0.5, lazy_s: float | None = None, eager_bytes: int = 32 << 10,
            cpu_every_s: float = 0.25) -> Collected:
    """Drain `streams` of the started process `pid` until it has exited and they are closed,
    kill it (`kill`) at the first limit it meets, then reap it.

    The run is over when the process exits (its pidfd fires) or a limit stops it, not when its
    pipes close: a program may close fd 1 and fd 2 (C's fclose(stdout)) and go on computing.
    After the exit, descendants that hold the pipes open get `linger_s`; `kill` is called before
    the reap in any case (the zombie keeps a process group's id alive for it to reach them).

    Limits: the wall deadline (`t0` + `wall_s`, moved later by what `waited` reads, see below); the output caps (see Stream); the CPU limit when
    `cpu_used` reads the CPU spent so far (None: it cannot), looked at no later than the earliest
    moment the budget could run out on all `ncpu` cores, and at least every `cpu_every_s`. `lazy_s`: instead of waking for every
    write, sleep on the pidfd alone and empty the pipes every `lazy_s` (a check writes ~15 records;
    each wake-up costs a run of this loop while it runs), turning eager (woken by the pipes) once
    a drain finds `eager_bytes`, so a flooding writer never waits on a full pipe for long. None:
    eager from the start.

    `waited`: seconds the run has waited runnable for a CPU since `t0` (a cgroup's CPU pressure,
    or `threads_waited`). Wall is a backstop against sleeping or blocking; load must not stop a
    computing run. At the deadline it moves to `t0` + `wall_s` + waited, never past `t0` +
    WALL_STRETCH x `wall_s`; a sleeper waits for no CPU and stops at its wall limit."""
    for s in streams:
        os.set_blocking(s.fd, False)
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    eager = lazy_s is None
    if eager:
        for s in streams:
            poller.register(s.fd, select.POLLIN)
    watch_cpu = cpu_used is not None
    next_cpu_look = t0 + min(0.05, cpu_limit / ncpu) if watch_cpu else INF
    next_drain = t0 + (lazy_s or 0.0)
    deadline = t0 + wall_s
    exited = killed_for_cpu = killed_for_wall = killed_for_output = False
    cpu_seen = waited_s = 0.0
    linger_until: float | None = None
    live = [s for s in streams]
    while live or not exited:
        now = time.monotonic()
        if not exited and now >= next_cpu_look:
            used = cpu_used() if cpu_used is not None else None
            if used is None:
                next_cpu_look = INF
            else:
                cpu_seen = max(cpu_seen, used)
                left = cpu_limit - used
                if left <= 0:
                    kill()
                    killed_for_cpu = True
                    next_cpu_look = deadline = INF
                else:
                    next_cpu_look = now + min(cpu_every_s, max(0.005, left / ncpu))
        if not exited and now >= deadline:
            later = _stretched(t0, wall_s, waited)
            if later > now:
                waited_s = later - (t0 + wall_s)
                deadline = min(max(later, now + STRETCH_STEP_S), t0 + WALL_STRETCH * wall_s)
            else:
                kill()
                killed_for_wall = True
                deadline = INF
        if exited and linger_until is None:
            linger_until = now + linger_s
        if linger_until is not None and now >= linger_until:
            break
        if exited or eager or now >= next_drain:
            got = 0
            for s in list(live):
                n, over = s.drain()
                got += n
                if over and s.stops and not killed_for_output:
                    killed_for_output = True
                    if not exited:
                        kill()
                        next_cpu_look = deadline = INF
                if s.eof:
                    live.remove(s)
                    if eager:
                        poller.unregister(s.fd)
            if not live and exited:
                break
            if lazy_s is not None:
                next_drain = now + lazy_s
            if not eager and (exited or got >= eager_bytes):
                eager = True
                for s in live:
                    poller.register(s.fd, select.POLLIN)
        limit_at = min(deadline, next_cpu_look if not exited else INF, linger_until or INF,
                       next_drain if not eager else INF)
        timeout_ms = None if limit_at == INF else max(0, int((limit_at - now) * 1000) + 1)
        for fd, _ev in poller.poll(timeout_ms):
            if fd == pidfd:
                exited = True
                poller.unregister(pidfd)
    kill()
    _, status, rusage = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    for s in streams:
        if s.close:
            os.close(s.fd)
    os.close(pidfd)
    cpu = rusage.ru_utime + rusage.ru_stime
    used = cpu_used() if cpu_used is not None else None
    if used is not None:
        cpu = max(cpu, used, cpu_seen)
    return Collected(status, cpu, wall, rusage.ru_maxrss, killed_for_cpu, killed_for_wall, killed_for_output,
                     used is not None, waited_s)


def _stretched(t0: float, wall_s: float, waited: Callable[[], float | None] | None) -> float:
    """The wall deadline moved by the time the run waited for a CPU (see collect), capped."""
    if waited is None:
        return t0 + wall_s
    try:
        w = waited()
    except OSError:
        w = None
    if w is None or w <= 0:
        return t0 + wall_s
    return t0 + wall_s + min(w, (WALL_STRETCH - 1.0) * wall_s)


def _proc_pid(pid: int) -> int | None:
    """`pid` (in this process's pid namespace) as /proc numbers it: a worker that is pid 1 of its
    own namespace (userns mode) sees the host's /proc, where its child's number is another
    process's. The kernel says which through a pidfd's fdinfo. None: gone, or not shown."""
    try:
        fd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None
    try:
        info = os.open(f"/proc/self/fdinfo/{fd}", os.O_RDONLY | os.O_CLOEXEC)
        try:
            text = os.read(info, 4096)
        finally:
            os.close(info)
    except OSError:
        return None
    finally:
        os.close(fd)
    for line in text.splitlines():
        if line.startswith(b"Pid:"):
            n = line[4:].strip()
            return int(n) if n.isdigit() and int(n) > 0 else None
    return None


def threads_waited(pids: list[int]) -> float | None:
    """Seconds the live threads of `pids` have waited runnable for a CPU: the run delay, field 2
    of /proc/<pid>/task/<tid>/schedstat (ns), summed. None: nothing readable."""
    total = 0
    seen = False
    for pid in pids:
        pid = _proc_pid(pid)
        if pid is None:
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                fd = os.open(f"/proc/{pid}/task/{tid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                fields = os.read(fd, 256).split()
            except OSError:
                continue
            finally:
                os.close(fd)
            if len(fields) >= 2 and fields[1].isdigit():
                total += int(fields[1])
                seen = True
    return total / 1e9 if seen else None


def kill_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads, and `pid` itself (it may have left the group)."""
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _high(fd: int) -> int:
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD, 100)


def _close_from(first: int, channel: int | None) -> None:
    """Close every descriptor from `first` up to FD_END, in as few system calls as the sandbox
    allows. os.closerange is one close_range(2); where that fails (the seccomp guard refuses a
    range spanning the result channel), CPython falls back to one close(2) per number: 65,536
    calls through the filter, ~60 ms of system CPU per case process. So the ranges go around
    `channel`, and the channel itself is closed on its own: refused where the guard keeps it
    (the worker accepts the channel's bytes from the harness's process only), closed where no
    guard does. Any other value of `channel` closes the same descriptors, only slower."""
    if channel is None or not first <= channel < FD_END:
        os.closerange(first, FD_END)
        return
    os.closerange(first, channel)
    try:
        os.close(channel)
    except OSError:
        pass
    os.closerange(channel + 1, FD_END)


def set_rlimits(rlimits: Iterable[tuple[int, int, int]]) -> None:
    """Set each (resource, soft, hard) on this process: the one place Python puts an rlimit on
    untrusted code, a whole check's (`set_check_rlimits`) and a case's (`spawn`). The values are
    rlvr_harness/limits.py's; sandbox/_child.c sets the same values, handed to it by the worker."""
    for res, soft, hard in rlimits:
        resource.setrlimit(res, (soft, hard))


def set_check_rlimits(pairs: Iterable[tuple[int, int]]) -> None:
    """A whole check's rlimits (limits.check_rlimits: soft = hard), set by the worker's Python
    set-up steps (sandbox/isolation.py) and by the light runner inside gVisor and Beam
    (sandbox/inner.py)."""
    set_rlimits((res, value, value) for res, value in pairs)


def spawn(target: Callable[[], None] | list[str], stdin_path: str | None, rlimits: list[tuple[int, int, int]],
          want_extra: bool = False, env: dict[str, str] | None = None) -> tuple[int, float, list[int]]:
    """Fork a process in its own process group that runs `target` (a Python callable, or an argv
    to exec) with `stdin_path` (or /dev/null) on fd 0, pipes on fd 1, 2 and, with `want_extra`,
    fd 3; every other descriptor closed (the report channel above all: a case cannot forge
    reports); `rlimits` ((resource, soft, hard), see limits.case_rlimits) set. Returns (pid, the
    start time, the read ends: stdout, stderr[, extra])."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    ext_r, ext_w = os.pipe() if want_extra else (-1, -1)
    in_fd = os.open(stdin_path or "/dev/null", os.O_RDONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the spawned process
        try:
            os.setpgid(0, 0)
            srcs = [_high(in_fd), _high(out_w), _high(err_w)] + ([_high(ext_w)] if want_extra else [])
            for target_fd, src in enumerate(srcs):
                os.dup2(src, target_fd)
            _close_from(len(srcs), CHANNEL[0])
            set_rlimits(rlimits)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            if callable(target):
                target()
                os._exit(0)
            os.execve(target[0], target, env if env is not None else dict(os.environ))
        except BaseException:  # noqa: BLE001
            try:
                os.write(2, traceback.format_exc().encode()[-2000:])
            except BaseException:
                pass
        os._exit(120)
    os.close(in_fd), os.close(out_w), os.close(err_w)
    if want_extra:
        os.close(ext_w)
    return pid, t0, [out_r, err_r] + ([ext_r] if want_extra else [])


def run(target: Callable[[], None] | list[str], stdin_path: str | None, *, cpu_s: float, wall_s: float,
        streams: list[tuple[int, bool]], memory_mb: int | None = None, stack_mb: int | None = None,
        env: dict[str, str] | None = None) -> tuple[Collected, list[bytes]]:
    """spawn + collect for one case's process: `streams` are (cap, stops) of stdout, stderr and,
    when a third is given, fd 3. Returns how it ended and what each stream kept."""
    pid, t0, fds = spawn(target, stdin_path, case_rlimits(cpu_s, memory_mb, stack_mb), len(streams) > 2, env)
    drained = [Stream(fd, cap, stops) for fd, (cap, stops) in zip(fds, streams, strict=True)]
    # The case's process is new: its threads' run delay is what it waited since t0.
    ended = collect(pid, drained, t0=t0, wall_s=wall_s, kill=lambda: kill_group(pid),
                    waited=lambda: threads_waited([pid]))
    return ended, [bytes(s.data) for s in drained]

