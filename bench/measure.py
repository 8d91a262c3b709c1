"""Measuring one run of a command: wall time, CPU time of its whole process tree, peak memory.

CPU time comes from wait4()'s rusage, which covers the process and every descendant it (or
they) waited for — the grader's zygotes and their per-check children included. Unlike wall
time it barely moves when other jobs share the machine, so the bench reports both."""

from __future__ import annotations

import functools
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class RunStats:
    wall_s: float
    cpu_s: float  # user + system of the whole tree (cgroup accounting where available)
    maxrss_mb: float  # largest single process in the tree (kernel's ru_maxrss)
    returncode: int
    tree_rss_peak_mb: float | None = None  # sampled sum over the live tree
    tree_pss_peak_mb: float | None = None
    main_rss_peak_mb: float | None = None
    samples: list[tuple[float, float, float]] = field(default_factory=list)  # (t, main, tree)
    stderr_tail: str = ""


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        ppid = int(data[data.rindex(b")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def _tree(pid: int) -> list[int]:
    kids = _children_map()
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, ()))
    return out


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * PAGE / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


def _pss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class _Sampler(threading.Thread):
    """Samples RSS of a process and its descendants every `interval` seconds."""

    def __init__(self, pid: int, interval: float = 0.1, pss_every: int = 10):
        super().__init__(daemon=True)
        self.pid, self.interval, self.pss_every = pid, interval, pss_every
        self.stop = threading.Event()
        self.samples: list[tuple[float, float, float]] = []
        self.tree_peak = self.pss_peak = self.main_peak = 0.0
        self.t0 = time.perf_counter()

    def run(self) -> None:
        i = 0
        while not self.stop.is_set():
            pids = _tree(self.pid)
            main = _rss_mb(self.pid)
            tree = sum(_rss_mb(p) for p in pids)
            if i % self.pss_every == 0:
                self.pss_peak = max(self.pss_peak, sum(_pss_mb(p) for p in pids))
            self.main_peak = max(self.main_peak, main)
            self.tree_peak = max(self.tree_peak, tree)
            self.samples.append((round(time.perf_counter() - self.t0, 2), round(main, 1), round(tree, 1)))
            i += 1
            self.stop.wait(self.interval)


class CpuGroup:
    """A throwaway cpuacct cgroup (v1) or cgroup (v2) holding one measured command and
    everything it starts. rusage alone misses CPU spent under bwrap and runsc (their
    pid-namespace children are never reaped through them); the cgroup sees all of it, except
    what gVisor moves into its own cgroup."""

    def __init__(self) -> None:
        self.path: str | None = None
        name = f"rlvr-bench-{os.getpid()}-{threading.get_ident()}-{time.monotonic_ns()}"
        for base, stat in (("/sys/fs/cgroup/cpuacct", "cpuacct.usage"), ("/sys/fs/cgroup/cpu,cpuacct", "cpuacct.usage"),
                           ("/sys/fs/cgroup", "cpu.stat")):
            if os.path.exists(os.path.join(base, stat)) or (stat == "cpu.stat" and os.path.exists(os.path.join(base, "cgroup.controllers"))):
                try:
                    os.mkdir(os.path.join(base, name))
                except OSError:
                    continue
                self.path, self.stat = os.path.join(base, name), stat
                break

    def join(self) -> None:  # runs in the child between fork and exec
        if self.path:
            with open(os.path.join(self.path, "cgroup.procs"), "w") as fh:
                fh.write("0")

    def cpu_s(self) -> float | None:
        if not self.path:
            return None
        try:
            with open(os.path.join(self.path, self.stat)) as fh:
                if self.stat == "cpuacct.usage":
                    return int(fh.read()) / 1e9
                for line in fh:
                    if line.startswith("usage_usec"):
                        return int(line.split()[1]) / 1e6
        except OSError:
            return None
        return None

    def remove(self) -> None:
        if self.path:
            for _ in range(50):
                try:
                    os.rmdir(self.path)
                    return
                except OSError:
                    time.sleep(0.05)  # the last processes of the tree are still exiting


def run(cmd: list[str], *, cwd: str | None = None, env: dict[str, str] | None = None, stdin: str | None = None,
        stdout: str | None = None, sample_rss: bool = False, timeout: float = 1800) -> RunStats:
    """Run `cmd` to completion and measure it. stdout goes to the file `stdout` (or nowhere)."""
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    inp = open(stdin, "rb") if stdin else subprocess.DEVNULL
    err_path = os.path.join("/tmp", f".rlvr-bench-err-{os.getpid()}-{threading.get_ident()}")
    err = open(err_path, "wb")
    group = CpuGroup()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=inp, stdout=out, stderr=err,
                            preexec_fn=group.join if group.path else None)
    sampler = _Sampler(proc.pid) if sample_rss else None
    if sampler:
        sampler.start()
    deadline = t0 + timeout
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if sampler:
        sampler.stop.set()
        sampler.join()
    for fh in (out, inp, err):
        if fh is not subprocess.DEVNULL:
            fh.close()
    with open(err_path, "rb") as fh:
        tail = fh.read()[-3000:].decode("utf-8", "replace")
    os.unlink(err_path)
    cg_cpu = group.cpu_s()
    group.remove()
    rusage_cpu = ru.ru_utime + ru.ru_stime
    stats = RunStats(wall_s=wall, cpu_s=max(cg_cpu or 0.0, rusage_cpu), maxrss_mb=ru.ru_maxrss / 1024,
                     returncode=proc.returncode, stderr_tail=tail)
    if sampler:
        stats.tree_rss_peak_mb = round(sampler.tree_peak, 1)
        stats.tree_pss_peak_mb = round(sampler.pss_peak, 1)
        stats.main_rss_peak_mb = round(sampler.main_peak, 1)
        stats.samples = sampler.samples
    return stats


def median(values: list[float]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def venv_bin(name: str) -> str:
    return os.path.join(os.path.dirname(sys.executable), name)


@functools.lru_cache(maxsize=1)
def cli_help() -> str:
    """`rlvr-grade score --help`, to detect options that other work may have added."""
    try:
        return subprocess.run([venv_bin("rlvr-grade"), "score", "--help"], capture_output=True, text=True,
                              timeout=60, env={**os.environ, "COLUMNS": "200"}).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def machine() -> dict[str, Any]:
    import platform

    cpu = ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = 0
    try:
        with open("/proc/meminfo") as fh:
            mem = int(fh.readline().split()[1]) // 1024
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu_model": cpu,
        "memory_mb": mem,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "loadavg_start": os.getloadavg(),
    }
