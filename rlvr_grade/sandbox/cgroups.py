"""Per-slot memory, pids and CPU-accounting cgroups, on cgroup v1 or v2, whichever the host mounts.

Each worker slot owns one cgroup for its whole life; a check's child joins it by writing its
own pid (creating and removing a cgroup per check costs 7-15 ms once RCU gets involved). The
gVisor backend's slots are the same cgroups, each holding one `runsc` tree at a time."""

from __future__ import annotations

import os
import re

ROOT = "/sys/fs/cgroup"
# A v1 host's v2 hierarchy (systemd's "hybrid" layout): a slot's twin there counts its CPU pressure.
UNIFIED = os.path.join(ROOT, "unified")

# The names of the cgroups we make under rlvr-grade/, group 1 the pid of the process whose
# death leaves them orphaned (see sweep_dead). Neither pattern matches the other's names, or
# anyone's own.
# LocalBackend's slots: f"{pid}-{instance}-slot{i}", "-py" for a slot's pytest-warm twin;
# graders before the instance counter used f"{pid}-slot{i}". The pid is the grader's.
SLOT_NAME = re.compile(r"([0-9]+)-(?:[0-9]+-)?slot[0-9]+(?:-[0-9a-f]{8})?(?:-py)?")  # -<env id> per environment
# The one-check inner runner's (sandbox/inner.py, full mode): f"inner-{pid}-{token_hex(4)}".
INNER_NAME = re.compile(r"inner-([0-9]+)-[0-9a-f]+")
# GvisorBackend's slots (sandbox/gvisor.py): f"gvisor-{pid}-{instance}-slot{i}", the pid the grader's.
GVISOR_NAME = re.compile(r"gvisor-([0-9]+)-[0-9]+-slot[0-9]+")


def cgroup_version() -> int | None:
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        return 2
    if os.path.isdir(os.path.join(ROOT, "memory")) and os.path.isdir(os.path.join(ROOT, "pids")):
        return 1
    return None


# Plain os.open/read/write, not open(): a worker touches ~7 cgroup files per check, and a
# buffered text file object costs ~5x the syscalls' own time to build and tear down.
def _write(path: str, value: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _read(path: str) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks).decode()
            chunks.append(chunk)
    finally:
        os.close(fd)


class SlotCgroup:
    """The memory+pids cgroup of one worker slot."""

    # Files a worker reads or writes around every check, held open once it has used them: a
    # path walk through /sys/fs/cgroup per open was ~0.2 ms of system time a check (perf).
    # Each of these is generated again by every read from offset 0 (a counter, PSI, a peak),
    # never cached per descriptor. Not cgroup.procs: on cgroup v1 an open file keeps the pid
    # list it read for a second, and a read through it would miss a process forked since.
    def _read_held(self, path: str) -> str:
        """The whole file from its start (one read: these files are far below 64 KiB)."""
        held = self.__dict__.setdefault("_fds", {})
        fd = held.get(path)
        try:
            if fd is None:
                fd = held[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(fd, 65536, 0).decode()
        except OSError:
            self._drop(path)
            raise

    def _write_held(self, path: str, value: str) -> None:
        held = self.__dict__.setdefault("_fds", {})
        key = (path, "w")
        fd = held.get(key)
        try:
            if fd is None:
                fd = held[key] = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            os.write(fd, value.encode())
        except OSError:
            self._drop(key)
            raise

    def _drop(self, key: str | tuple[str, str]) -> None:
        fd = self.__dict__.get("_fds", {}).pop(key, None)
        if fd is not None:
            os.close(fd)

    def close_files(self) -> None:
        """Close the files held open (remove() does it first)."""
        for fd in self.__dict__.pop("_fds", {}).values():
            os.close(fd)

    def __init__(self, name: str):
        self.version = cgroup_version()
        self.name = name
        self.dirs: list[str] = []
        # cpu.pressure of the slot (v1: of its twin in UNIFIED, see join_pressure)
        self.pressure_file: str | None = None
        self.pressure_dir: str | None = None
        self._joined_from: str | None = None
        if self.version == 2:
            parent = os.path.join(ROOT, "rlvr-grade")
            os.makedirs(parent, exist_ok=True)
            try:
                _write(os.path.join(parent, "cgroup.subtree_control"), "+memory +pids")
            except OSError:
                pass
            d = os.path.join(parent, name)
            os.makedirs(d, exist_ok=True)
            self.dirs = [d]
            self.memory_dir = self.pids_dir = d
            # cpu.stat (usage_usec) exists in every v2 cgroup, the cpu controller not needed.
            self.cpu_file = os.path.join(d, "cpu.stat")
            self.pressure_file = os.path.join(d, "cpu.pressure")
        elif self.version == 1:
            self.memory_dir = os.path.join(ROOT, "memory", "rlvr-grade", name)
            self.pids_dir = os.path.join(ROOT, "pids", "rlvr-grade", name)
            for d in (self.memory_dir, self.pids_dir):
                os.makedirs(d, exist_ok=True)
            self.dirs = [self.memory_dir, self.pids_dir]
            self.cpu_file = None
            cpuacct = os.path.join(ROOT, "cpuacct")
            if os.path.isdir(cpuacct):
                d = os.path.join(cpuacct, "rlvr-grade", name)
                try:
                    os.makedirs(d, exist_ok=True)
                    self.dirs.append(d)
                    self.cpu_file = os.path.join(d, "cpuacct.usage")
                except OSError:
                    pass  # CPU is then limited by RLIMIT_CPU per process only
            if os.path.isfile(os.path.join(UNIFIED, "cgroup.procs")):
                d = os.path.join(UNIFIED, "rlvr-grade", name)
                try:
                    os.makedirs(d, exist_ok=True)
                    self.pressure_dir = d
                    self.pressure_file = os.path.join(d, "cpu.pressure")
                except OSError:
                    pass
            try:
                _write(os.path.join(self.memory_dir, "memory.swappiness"), "0")
            except OSError:
                pass
        else:
            raise OSError("no cgroup v1 memory+pids hierarchy and no cgroup v2 mount")

    def configure(self, memory_bytes: int, pids: int) -> None:
        """Set the limits for the next check. Only the slot's own worker writes them and no
        check can (root-owned files, read-only /sys), so unchanged limits are not rewritten:
        most runs use one set of limits, and the writes cost ~0.3 ms a check."""
        if getattr(self, "_configured", None) == (memory_bytes, pids):
            if self.version == 1:
                self._reset_peak()
            return
        self._configured = None  # a write that fails halfway leaves the state unknown
        self._write_limits(memory_bytes, pids)
        self._configured = (memory_bytes, pids)

    def _reset_peak(self) -> None:
        try:
            self._write_held(os.path.join(self.memory_dir, "memory.max_usage_in_bytes"), "0")
        except OSError:
            pass

    def _write_limits(self, memory_bytes: int, pids: int) -> None:
        if self.version == 2:
            _write(os.path.join(self.memory_dir, "memory.max"), str(memory_bytes))
            try:
                _write(os.path.join(self.memory_dir, "memory.swap.max"), "0")
            except OSError:
                pass
            _write(os.path.join(self.pids_dir, "pids.max"), str(pids))
        else:
            limit = os.path.join(self.memory_dir, "memory.limit_in_bytes")
            memsw = os.path.join(self.memory_dir, "memory.memsw.limit_in_bytes")
            # memsw must stay >= limit at every step, so the order of the writes depends on direction.
            try:
                current = int(_read(limit))
            except OSError:
                current = 0
            if os.path.exists(memsw) and memory_bytes < current:
                _write(limit, str(memory_bytes))
                _write(memsw, str(memory_bytes))
            else:
                if os.path.exists(memsw):
                    try:
                        _write(memsw, str(memory_bytes))
                    except OSError:
                        _write(limit, str(memory_bytes))
                        _write(memsw, str(memory_bytes))
                        memsw = ""
                _write(limit, str(memory_bytes))
            _write(os.path.join(self.pids_dir, "pids.max"), str(pids))
            self._reset_peak()

    def cpu_ns(self) -> int | None:
        """CPU time (user+system) ever spent by the slot's checks, every process counted."""
        if not self.cpu_file:
            return None
        try:
            text = self._read_held(self.cpu_file)
        except OSError:
            return None
        if self.version == 2:
            for line in text.splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * 1000
            return None
        return int(text)

    def cpu_waited_us(self) -> int | None:
        """Microseconds in which a task of the slot waited runnable for a CPU (PSI cpu "some"
        total), exited processes included. None: no PSI (kernel without it, psi=0)."""
        if self.pressure_file is None:
            return None
        try:
            text = self._read_held(self.pressure_file)
        except OSError:
            return None
        for line in text.splitlines():
            if line.startswith("some "):
                for part in line.split():
                    if part.startswith("total="):
                        return int(part[6:])
        return None

    def join_pressure(self) -> None:
        """v1: move the calling worker into the slot's twin in UNIFIED, once, so its checks are
        born there (a v2 move takes a global lock, ~1 ms CPU: not per check). remove() leaves."""
        if self.pressure_dir is None or self._joined_from is not None:
            return
        try:
            for line in _read("/proc/self/cgroup").splitlines():
                if line.startswith("0::"):
                    self._joined_from = os.path.join(UNIFIED, line[3:].lstrip("/"))
            _write(os.path.join(self.pressure_dir, "cgroup.procs"), "0")
        except OSError:
            self._joined_from = None
            self.pressure_dir = self.pressure_file = None
            return
        if self._joined_from is None:
            self._joined_from = UNIFIED

    def processes(self) -> list[int]:
        """The pids in the slot's cgroup now."""
        try:
            return [int(t) for t in _read(os.path.join(self.pids_dir, "cgroup.procs")).split()]
        except (OSError, ValueError):
            return []

    def join(self, pid: int) -> None:
        for d in self.dirs:
            _write(os.path.join(d, "cgroup.procs"), str(pid))

    def procs_files(self) -> list[str]:
        """The file per hierarchy a process writes its own pid to, to join (join does it for
        another pid, which races with that process's forks)."""
        return [os.path.join(d, "cgroup.procs") for d in self.dirs + ([self.pressure_dir] if self.pressure_dir else [])]

    def members(self) -> int:
        """How many processes are in the slot's cgroups now."""
        count = 0
        for d in self.dirs:
            try:
                count = max(count, len(_read(os.path.join(d, "cgroup.procs")).split()))
            except OSError:
                pass
        return count

    def empty(self, wait_s: float = 5.0) -> bool:
        """SIGKILL everything in the slot's cgroups until none is left (a process forking while
        it is killed adds members after the first sweep), waiting for the killed to exit;
        True when the cgroups are empty."""
        import time

        deadline = time.monotonic() + wait_s
        while self.kill_all():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True

    def oom_kills(self) -> int:
        path = os.path.join(self.memory_dir, "memory.events" if self.version == 2 else "memory.oom_control")
        try:
            for line in self._read_held(path).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except OSError:
            pass
        if self.version == 1:
            try:
                return int(_read(os.path.join(self.memory_dir, "memory.failcnt")))
            except OSError:
                return 0
        return 0

    def peak_mark(self) -> int:
        """Taken before a check, for peak_since. cgroup v1's peak was reset by configure() (0);
        v2's memory.peak cannot be reset on every kernel, so the previous checks' peak is the
        mark a check must beat."""
        return self.peak_bytes() if self.version == 2 else 0

    def peak_since(self, mark: int) -> int:
        """The slot's peak if the check just run raised it above `mark` (peak_mark), else 0:
        a check is never reported with the peak of one that ran before it in the slot."""
        peak = self.peak_bytes()
        return peak if peak > mark else 0

    def peak_bytes(self) -> int:
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int(self._read_held(os.path.join(self.memory_dir, name)))
        except (OSError, ValueError):
            return 0

    def kill_all(self) -> int:
        """SIGKILL every process left in the slot's cgroups; returns how many were found."""
        import signal

        found = 0
        for d in self.dirs:
            try:
                for pid in _read(os.path.join(d, "cgroup.procs")).split():
                    found += 1
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            except OSError:
                pass
        return found

    def remove(self, wait_s: float = 1.0) -> None:
        """rmdir the slot's cgroups. Processes just SIGKILLed by kill_all() still count as
        members until they have exited, and rmdir fails with EBUSY until then: retry briefly."""
        import time

        deadline = time.monotonic() + wait_s
        self.close_files()
        if self._joined_from is not None:
            try:
                _write(os.path.join(self._joined_from, "cgroup.procs"), "0")
            except OSError:
                pass
            self._joined_from = None
        for d in self.dirs + ([self.pressure_dir] if self.pressure_dir else []):
            _rmdir_by(d, deadline)


def _rmdir_by(d: str, deadline: float) -> bool:
    """rmdir a cgroup, retrying while it is busy (members SIGKILLed a moment ago count until
    they have exited) until `deadline` (time.monotonic()). True when this call removed it."""
    import time

    while True:
        try:
            os.rmdir(d)
            return True
        except FileNotFoundError:
            return False
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)


def _parents() -> list[str]:
    """Every rlvr-grade/ directory slot cgroups are made in (one per v1 hierarchy)."""
    import glob

    return sorted(set(glob.glob(os.path.join(ROOT, "rlvr-grade")) + glob.glob(os.path.join(ROOT, "*", "rlvr-grade"))))


def sweep_dead(name: re.Pattern[str], wait_s: float = 1.0) -> list[str]:
    """Remove our cgroups whose name `name` fully matches (group 1: the owner's pid) and whose
    owner no longer runs: a SIGKILLed grader or runner never gets to remove its own, and they
    pile up run after run. A cgroup whose owner still runs (leftovers.pid_alive: anything
    unclear counts as alive) is never touched. What is left inside a dead owner's cgroup (a
    check child that outlived its worker) is killed first. Returns the directories removed."""
    import signal
    import time

    from rlvr_grade.leftovers import pid_alive

    stale = []
    for parent in _parents():
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for entry in names:
            m = name.fullmatch(entry)
            if m is None or pid_alive(int(m.group(1))):
                continue
            d = os.path.join(parent, entry)
            if os.path.isdir(d) and not os.path.islink(d):
                stale.append(d)
    for d in stale:
        try:
            for pid in _read(os.path.join(d, "cgroup.procs")).split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
        except OSError:
            pass
    deadline = time.monotonic() + wait_s
    return [d for d in stale if _rmdir_by(d, deadline)]
