"""The warm worker of one slot: imports the harness and pytest once, then forks one isolated
child per check. Started by sandbox/local.py as `python -s -c ...`; speaks protocol.py frames
on two private fds. Everything here runs as root in the slot's own network namespace."""

from __future__ import annotations

import gc
import json
import math
import os
import resource
import secrets
import select
import signal
import sys
import time
from typing import Any

from rlvr_grade.sandbox import linux, mounts, protocol

WORKDIR = "/tmp/w"
TESTDIR = "/tmp/t"
READ_CHUNK = 65536


class Config:
    def __init__(self, init: dict[str, Any]):
        self.slot: int = init["slot"]
        self.uid: int = init["uid"]
        self.isolate: bool = init["isolate"]
        self.cgroup_name: str | None = init.get("cgroup")
        self.hide: list[str] = init.get("hide", [])
        self.env: dict[str, str] = init.get("env", {})


class Zygote:
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.cgroup = None
        self.pidns_fd: int | None = None
        self.features: dict[str, str] = {}
        self.fs_plan = mounts.plan(cfg.hide)
        if cfg.isolate:
            self._isolate_slot()

    def _isolate_slot(self) -> None:
        # One empty network namespace per slot: checks in a slot never overlap, and setting it
        # up once costs nothing per check (a fresh netns per check costs ~0.7 ms + teardown).
        linux.unshare(linux.CLONE_NEWNET)
        self.features["network"] = "own empty network namespace per slot"
        self.pidns_fd = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        if self.cfg.cgroup_name:
            from rlvr_grade.sandbox.cgroups import SlotCgroup

            self.cgroup = SlotCgroup(self.cfg.cgroup_name)

    # -- one check -----------------------------------------------------------------------
    def execute(self, req: dict[str, Any]) -> dict[str, Any]:
        payload = req["payload"]
        limits = req["limits"]
        nonce = secrets.token_hex(16)
        res_r, res_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        oom_before = 0
        if self.cgroup is not None:
            self.cgroup.configure(int(limits["memory_mb"]) << 20, int(limits["processes"]))
            oom_before = self.cgroup.oom_kills()
        sys.stdout.flush()
        sys.stderr.flush()
        if self.pidns_fd is not None:
            linux.unshare(linux.CLONE_NEWPID)
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            code = 70
            try:
                os.close(res_r), os.close(out_r), os.close(err_r)
                self._child(payload, limits, nonce, res_w, out_w, err_w)
                code = 0
            except BaseException:  # noqa: BLE001 - report what broke the setup, then die
                try:
                    import traceback

                    os.write(2, traceback.format_exc().encode()[-2000:])
                except BaseException:
                    pass
            finally:
                os._exit(code)
        if self.pidns_fd is not None:
            linux.setns(self.pidns_fd, linux.CLONE_NEWPID)
        os.close(res_w), os.close(out_w), os.close(err_w)
        result = self._collect(pid, t0, limits, nonce, res_r, out_r, err_r)
        if self.cgroup is not None:
            result["oom"] = self.cgroup.oom_kills() > oom_before
            result["peak_memory_mb"] = max(result["peak_memory_mb"], self.cgroup.peak_bytes() / 2**20)
            self.cgroup.kill_all()  # a process that escaped the pid namespace's death
        return result

    def _collect(self, pid: int, t0: float, limits: dict, nonce: str, res_r: int, out_r: int, err_r: int) -> dict[str, Any]:
        wall_limit = float(limits["wall_s"])
        cap = int(limits["output_bytes"])
        bufs = {res_r: bytearray(), out_r: bytearray(), err_r: bytearray()}
        caps = {res_r: 16 << 20, out_r: cap, err_r: cap}
        truncated = False
        open_fds = set(bufs)
        pidfd = os.pidfd_open(pid)
        exited = False
        killed_for_wall = False
        deadline = t0 + wall_limit
        poller = select.poll()
        for fd in open_fds:
            poller.register(fd, select.POLLIN)
        poller.register(pidfd, select.POLLIN)
        drain_until = None
        while open_fds:
            now = time.monotonic()
            if not exited and now >= deadline:
                os.kill(pid, signal.SIGKILL)
                killed_for_wall = True
                deadline = float("inf")
            if exited and drain_until is None:
                drain_until = now + 1.0  # the pid namespace is gone; pipes close at once
            if drain_until is not None and now >= drain_until:
                break
            limit_at = min(deadline, drain_until or float("inf"))
            timeout_ms = None if limit_at == float("inf") else max(0, int((limit_at - now) * 1000) + 1)
            for fd, _ev in poller.poll(timeout_ms):
                if fd == pidfd:
                    exited = True
                    poller.unregister(pidfd)
                    continue
                chunk = os.read(fd, READ_CHUNK)
                if not chunk:
                    poller.unregister(fd)
                    open_fds.discard(fd)
                    continue
                room = caps[fd] - len(bufs[fd])
                if room > 0:
                    bufs[fd] += chunk[:room]
                if len(chunk) > room and fd != res_r:
                    truncated = True  # keep draining so the writer never blocks on a full pipe
        if not exited:
            os.kill(pid, signal.SIGKILL)
        _, status, rusage = os.wait4(pid, 0)
        wall = time.monotonic() - t0
        for fd in (res_r, out_r, err_r, pidfd):
            os.close(fd)
        records, done, phase = parse_channel(bytes(bufs[res_r]), nonce)
        cpu = rusage.ru_utime + rusage.ru_stime
        return {
            "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "stdout": bytes(bufs[out_r]).decode("utf-8", "replace"),
            "stderr": bytes(bufs[err_r]).decode("utf-8", "replace"),
            "cpu_s": cpu,
            "wall_s": wall,
            "peak_memory_mb": rusage.ru_maxrss / 1024,
            "killed_for_wall": killed_for_wall,
            "output_truncated": truncated,
            "records": records,
            "done": done,
            "phase": phase,
            "oom": False,
        }

    # -- inside the child ------------------------------------------------------------------
    def _child(self, payload, limits, nonce, res_w, out_w, err_w) -> None:  # pragma: no cover
        os.setsid()
        devnull = os.open("/dev/null", os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        # The result channel sits at an unpredictable descriptor; every other inherited fd closes.
        chan = secrets.randbelow(800) + 200
        os.dup2(res_w, chan)
        os.set_inheritable(chan, False)
        os.closerange(3, chan)
        os.closerange(chan + 1, 4096)
        cfg = self.cfg
        workdir, testdir = WORKDIR, TESTDIR
        if cfg.isolate:
            if self.cgroup is not None:
                for d in self.cgroup.dirs:
                    with open(os.path.join(d, "cgroup.procs"), "w") as fh:
                        fh.write("0")
            linux.unshare(linux.CLONE_NEWNS | linux.CLONE_NEWIPC | linux.CLONE_NEWUTS)
            linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
            mounts.apply(self.fs_plan)
            linux.mount_setattr_recursive("/", linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID)
            disk = int(limits.get("disk_mb", 64))
            flags = linux.MS_NOSUID | linux.MS_NODEV
            linux.mount("tmpfs", "/tmp", "tmpfs", flags, f"size={disk}m,mode=1777")
            linux.mount("tmpfs", "/dev/shm", "tmpfs", flags, "size=16m,mode=1777")
            linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
        else:
            import tempfile

            base = tempfile.mkdtemp(prefix="rlvr-")
            workdir, testdir = os.path.join(base, "w"), os.path.join(base, "t")
        os.makedirs(workdir, exist_ok=True)
        os.makedirs(testdir, exist_ok=True)
        write_files(payload, workdir, testdir)
        if cfg.isolate:
            os.chown(workdir, cfg.uid, cfg.uid)
        cpu = int(math.ceil(float(limits["cpu_s"]) + 0.5))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))  # soft = hard: pid-ns init ignores SIGXCPU
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        fsize = int(limits["file_bytes"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        nproc = int(limits["processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        if self.cgroup is None:
            mem = int(limits["memory_mb"]) << 20
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        if cfg.isolate:
            os.setgroups([])
            os.setresgid(cfg.uid, cfg.uid, cfg.uid)
            os.setresuid(cfg.uid, cfg.uid, cfg.uid)
            linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        os.chdir(workdir)
        os.environ.clear()
        os.environ.update(cfg.env)
        os.environ.update({"HOME": workdir, "TMPDIR": "/tmp", "PWD": workdir})
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        run_harness(payload, nonce, chan, workdir, testdir)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass


def write_files(payload: dict[str, Any], workdir: str, testdir: str) -> None:
    from rlvr_grade.harness.runner import TEST_MODULE, WORKDIR_SOLUTION

    program = payload["program"]
    if payload.get("setup"):
        program = payload["setup"] + "\n" + program
    _write_ro(os.path.join(workdir, WORKDIR_SOLUTION), program)
    if payload["style"] == "pytest":
        _write_ro(os.path.join(testdir, TEST_MODULE), payload["tests"])
    for name, content in payload.get("files", {}).items():
        _write_ro(os.path.join(workdir, os.path.basename(name)), content)


def _write_ro(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


def run_harness(payload, nonce: str, chan: int, workdir: str, testdir: str) -> None:  # pragma: no cover
    from rlvr_grade.harness import runner
    from rlvr_grade.harness.channel import make_reporter

    # The encoder and os.write are bound now, before candidate code can patch json or os.
    report = make_reporter(nonce.encode() + b" ", chan)
    runner.run(payload, report, workdir, testdir)


def parse_channel(data: bytes, nonce: str) -> tuple[list[dict[str, Any]], bool, list[str] | None]:
    """Only lines carrying this check's nonce count; anything else on the channel is ignored."""
    prefix = nonce.encode() + b" "
    records: list[dict[str, Any]] = []
    done = False
    phase = None
    seen: set[str] = set()
    for line in data.split(b"\n"):
        if not line.startswith(prefix):
            continue
        try:
            event = json.loads(line[len(prefix):])
        except ValueError:
            continue
        ev = event.get("ev")
        if ev == "test":
            tid = str(event.get("id"))
            if tid in seen:
                # A second report for the same test can only be a forgery or a re-run: keep the worse.
                for r in records:
                    if r["id"] == tid and event.get("outcome") != "passed":
                        r.update(outcome=event.get("outcome"), message=str(event.get("msg", "")))
                continue
            seen.add(tid)
            records.append({"id": tid, "outcome": event.get("outcome"), "message": str(event.get("msg", "")), "output": event.get("output")})
        elif ev == "done":
            done = True
        elif ev == "phase" and phase is None:
            phase = [str(event.get("phase")), str(event.get("msg", ""))]
    return records, done, phase


def warm_up() -> None:
    """Import what checks need and run one pytest session, so each child starts hot."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        import tempfile

        import pytest

        from rlvr_grade.harness import runner

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "test_rlvr_warmup.py")
            with open(path, "w") as fh:
                fh.write("def test_ok():\n    assert 1 + 1 == 2\n")
            saved = os.dup(1)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            try:
                pytest.main(runner.pytest_args(path, d), plugins=[])
            finally:
                sys.stdout.flush()
                os.dup2(saved, 1)
                os.close(saved)
                os.close(null)
        sys.modules.pop("test_rlvr_warmup", None)
        sys.path[:] = [p for p in sys.path if not p.startswith(d)]
    except ImportError:
        pass
    import rlvr_grade.harness.channel  # noqa: F401
    import rlvr_grade.harness.runner  # noqa: F401
    import rlvr_grade.harness.splitting  # noqa: F401


def main(in_fd: int, out_fd: int) -> None:
    # Our frames travel on private fds; fd 0/1 point elsewhere so nothing stray corrupts them.
    devnull = os.open("/dev/null", os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    init = protocol.recv(in_fd)
    if init is None:
        return
    try:
        cfg = Config(init)
        warm_up()
        zygote = Zygote(cfg)
    except BaseException as exc:  # noqa: BLE001
        protocol.send(out_fd, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return
    gc.collect()
    gc.freeze()  # children then share the parent's heap pages instead of copying on GC
    protocol.send(out_fd, {"ready": True, "features": zygote.features})
    while True:
        req = protocol.recv(in_fd)
        if req is None:
            return
        try:
            resp = zygote.execute(req)
        except BaseException as exc:  # noqa: BLE001 - the grader turns this into sandbox_error
            resp = {"sandbox_error": f"{type(exc).__name__}: {exc}"}
        protocol.send(out_fd, resp)
