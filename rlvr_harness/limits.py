"""The limits policy: which rlimits a process runs under, and which limit (if any) stopped it.
It decides; rlvr_harness/process.py enforces (`set_rlimits`, the one place Python sets an rlimit,
and `collect`, which stops a run at its CPU limit).

One policy for every path that runs untrusted code. A whole check's rlimits (`check_rlimits`)
are set by the worker's Python set-up steps (sandbox/isolation.py), by sandbox/_child.c (handed
these values by the zygote: its C mirror sets exactly what this returns) and by the light runner
inside gVisor and Beam (sandbox/inner.py). A stdio/call/validate case's own process gets
`case_rlimits` (rlvr_harness/process.py `spawn`). Which limit a run hit is decided by `limit_hit`,
for a whole check (boundary.execution_from_wire) and for one case (rlvr_harness/stdio.py) alike.

How the CPU limit is enforced: a check's, by the collector (rlvr_harness/process.py `collect`)
watching the slot cgroup's CPU accounting (exact, subprocesses included), with RLIMIT_CPU as the
per-process backstop; where no cgroup is (unprivileged, Beam), RLIMIT_CPU alone. Under gVisor,
RLIMIT_CPU inside, and the grader's collector watching a host cgroup around the whole sandbox
(sandbox/gvisor.py; `limit_hit` reads it through remote.Around). A case's, by RLIMIT_CPU on the
case's process. Sealed: the standard library only (this runs in the sandbox).
"""

from __future__ import annotations

import math
import resource
import signal
from typing import Literal

from rlvr_harness.wire import CheckLimits

# Open files per process. The host's file table (fs.file-max, ~RAM/10 KiB) is one pool for every
# process on the machine: a check may not take a measurable share of it. With the grader's own
# limit (often 2^20) a check's 64 processes could hold tens of millions of files; at 1024
# (what most programs run with) they hold at most 64k. The result channel (200..999) fits.
OPEN_FILES = 1024
# A process killed by SIGKILL (the cgroup watcher's, or RLIMIT_CPU's hard limit) with at least
# this share of its CPU limit spent was stopped for CPU: rusage reads a hair short of the limit.
CPU_NEAR = 0.95

LimitHit = Literal["output", "memory", "cpu", "wall", "file_size"]


def check_rlimits(limits: CheckLimits, *, has_cgroup: bool, nproc_extra: int = 0) -> list[tuple[int, int]]:
    """(resource, limit) for a whole check, each set soft = hard (a pid-namespace init ignores
    SIGXCPU): CPU backstop, core, file size, processes, open files, locked memory (none), and address space when no
    memory cgroup caps the check. `nproc_extra` the processes the
    check's uid already has that RLIMIT_NPROC counts (a user namespace maps the grader's uid)."""
    # Per process and whole seconds: with a cgroup the collector stops the check at its exact
    # limit, and this is a backstop one second later; without one it is the CPU limit.
    cpu = int(math.ceil(limits.cpu_s)) + (1 if has_cgroup else 0)
    out = [(resource.RLIMIT_CPU, cpu), (resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, limits.file_bytes),
           (resource.RLIMIT_NPROC, limits.processes + nproc_extra), (resource.RLIMIT_NOFILE, OPEN_FILES),
           # No locked memory: seccomp refuses mlock, mlock2 and mlockall, but mmap(MAP_LOCKED)
           # locked the grader's 8 MiB default in every process of the check (red team 4).
           (resource.RLIMIT_MEMLOCK, 0)]
    if not has_cgroup:
        out.append((resource.RLIMIT_AS, limits.memory_mb << 20))
    return out


# Wall-clock backstops. CPU time is the limit; wall time only stops what waits (a sleep, a read
# that never returns) and is generous on purpose: a loaded machine stretches wall time, never CPU
# time, and must turn no check into a timeout. Every wall limit derived from a CPU limit is here.
def check_wall_s(cpu_s: float) -> float:
    """A check's wall backstop when none was given (types.Limits.effective_wall_s)."""
    return 2.0 * cpu_s + 5.0


def cases_check_wall_s(check_cpu_s: float, given_s: float | None) -> float:
    """A stdio/call check's wall backstop (checks/cases.py): what was given plus room for every
    case's own backstop (case_wall_s) within the check's CPU."""
    return (given_s if given_s is not None else 0.0) + 3.0 * check_cpu_s + 10.0


def case_wall_s(case_cpu_s: float) -> float:
    """One stdio/call case's wall backstop inside a check (rlvr_harness/stdio.py)."""
    return 3.0 * case_cpu_s + 2.0


def case_rlimits(cpu_s: float, memory_mb: int | None = None, stack_mb: int | None = None) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for one case's process inside a check: RLIMIT_CPU at the case's
    limit rounded up (soft; SIGXCPU) and a second later (hard; SIGKILL), the address space
    (native programs: a judge's memory limit is per run) and the stack. Limits only go down from
    the check's own (an unprivileged process cannot raise a hard limit): each is clamped to what
    the calling process has."""
    out = []
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = max(1, int(math.ceil(cpu_s)))
    hard = soft + 1 if cpu_hard == resource.RLIM_INFINITY else min(soft + 1, cpu_hard)
    out.append((resource.RLIMIT_CPU, min(soft, hard), hard))
    if memory_mb is not None:
        lim = memory_mb << 20
        _, as_hard = resource.getrlimit(resource.RLIMIT_AS)
        if as_hard != resource.RLIM_INFINITY:
            lim = min(lim, as_hard)
        out.append((resource.RLIMIT_AS, lim, lim if as_hard == resource.RLIM_INFINITY else as_hard))
    if stack_mb is not None:
        _, st_hard = resource.getrlimit(resource.RLIMIT_STACK)
        want = stack_mb << 20
        if st_hard != resource.RLIM_INFINITY:
            want = min(want, st_hard)
        out.append((resource.RLIMIT_STACK, want, st_hard))
    return out


def cpu_rlimit_stopped(sig: int | None, cpu_s: float, cpu_limit: float, killed_for_wall: bool) -> bool:
    """Without a cgroup watching its CPU, was a check stopped by its RLIMIT_CPU (check_rlimits:
    soft = hard, so SIGKILL)? rusage reads it a little short of the whole-second limit."""
    return sig in (signal.SIGKILL, signal.SIGXCPU) and not killed_for_wall and cpu_s >= 0.75 * math.ceil(cpu_limit)


def limit_hit(*, cpu_s: float, cpu_limit: float, sig: int | None, killed_for_output: bool = False,
              killed_for_wall: bool = False, memory: bool = False, soft_cpu_rlimit: bool = False) -> LimitHit | None:
    """Which limit stopped a run, if any, in this order: the output cap (the collector stopped it;
    nothing after counts), memory (`memory`: the cgroup's OOM count or the harness's own report),
    CPU (spent, or killed by SIGKILL/SIGXCPU with CPU_NEAR of it spent), the wall deadline, the
    file size (SIGXFSZ). None: it ended by itself (or by another signal: a runtime error).

    `soft_cpu_rlimit`: the run's RLIMIT_CPU soft limit is below its hard one (case_rlimits), so
    a SIGXCPU is the kernel's notice of it whatever rusage reads (a JVM's read short of it under
    load). A check's soft = hard limit (check_rlimits) sends SIGKILL first: a SIGXCPU there with
    little CPU spent is the program's own."""
    if killed_for_output:
        return "output"
    if memory:
        return "memory"
    if (cpu_s >= cpu_limit or (soft_cpu_rlimit and sig == signal.SIGXCPU)
            or (sig in (signal.SIGKILL, signal.SIGXCPU) and cpu_s >= cpu_limit * CPU_NEAR)):
        return "cpu"
    if killed_for_wall:
        return "wall"
    if sig == signal.SIGXFSZ:
        return "file_size"
    return None
