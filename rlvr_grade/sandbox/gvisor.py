"""The gVisor backend: every check in its own `runsc run` sandbox (a user-space kernel between
the check and the host), running the same inner runner the Beam backend ships.

The sandbox's filesystem is the local backend's allowlisted root (sandbox/root.py), from the
same farm: an OCI bundle whose read-only rootfs is the farm and whose read-only bind mounts are
the root's directories, plus a fresh tmpfs /tmp, gVisor's own /dev and /proc, no /sys, and
generated /etc/passwd and /etc/group. The request reaches the runner on stdin, so no file of
it exists inside. No network (`--network=none`); the runner adds the check's rlimits, a dropped
uid and its own CPU/wall timers.

The limits cover the whole sandbox, not only the check's processes: each runsc, with its
sentry, gofer and everything they start, runs in a host cgroup of its slot (cgroups.SlotCgroup,
the local backend's): memory capped at the check's limit plus the sentry's own share (socket
and pipe buffers, tmpfs and file caches live in the sentry, where RLIMIT_AS does not see them),
an OOM kill in it read as the check's memory limit; its CPU accounting watched from the check's
start (the runner's STARTS_MARK) by the one collector (rlvr_harness/process.py), the whole tree
stopped at the check's CPU limit plus the sentry's share (RLIMIT_CPU is per process). Where no
cgroup can be made (no cgroup fs, none writable) the rlimits alone are the limits: one warning.

Facts this module leans on (notes/sandbox-costs.md): the ptrace platform works on these
machines, `--platform=kvm` hangs; runsc's own output must go to files, not pipes; a killed
runsc leaves its `runsc-NNNNNN` cgroups behind, so we run with `--ignore-cgroups` (runsc makes
no cgroup of its own; the slot's, which it starts in, holds it) and nothing is left to clean up.

runsc runs in a mount namespace of its own where every mount is `noatime` (`_noatime_namespace`):
its gofer reads the root's files through the host's inodes (the farm's hard links, the shown
directories), and with the host's atime rules a read from one check moved an access time that
another check (or the host) could stat: a channel between concurrent checks."""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from rlvr_grade.sandbox import PACKAGE_DIR
from rlvr_grade.sandbox.base import default_slots
from rlvr_grade.sandbox.inner import STARTS_MARK
from rlvr_grade.sandbox.remote import Around, RemoteBackend, Reply, Request
from rlvr_grade.sandbox.root import ENV_AT
from rlvr_grade.types import Check, SandboxError

CHECK_UID = 1000  # each check has a kernel of its own: one uid for all, named in /etc/passwd
_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
INSTALL_HINT = "apt-get install runsc  (Debian/Ubuntu; or https://gvisor.dev/docs/user_guide/install/)"

# What a sandbox holds beside the check, allowed on top of the check's memory limit in its
# slot's cgroup: runsc, the sentry (its Go heap, the runner's interpreter with the harness and
# pytest imported, its caches of the files read), the gofer. Measured (rss + shmem of the
# cgroup, docs/sandbox.md): 43 MiB for an asserts check, 69 MiB for a pytest one, 92 MiB for a
# pytest check importing pandas.
SENTRY_MEMORY_MB = 128
# The sandbox's CPU beyond the check's own, allowed on top of the check's CPU limit: the
# sentry's and gofer's work for the check (system calls, page faults, file reads) and the
# sandbox's exit. Measured from the check's start: the whole tree spent less host CPU than the
# runner inside reported for the check (ptrace bills scheduling delays as the task's time).
SENTRY_CPU_SHARE = 0.5  # times the check's CPU limit
SENTRY_CPU_S = 1.0
# Host tasks of one sandbox: ~75 for runsc, the sentry and the gofer (Go threads), and 8-13 per
# process of the check (ptrace's stub process per address space; threads cost none), whose
# count RLIMIT_NPROC caps inside. A backstop far above that: a sentry that cannot make a thread
# dies, and that would be the row's sandbox_error, not a verdict.
SANDBOX_TASKS = 128
TASKS_PER_PROCESS = 32
_JOIN = ('n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "rlvr: cannot join cgroup $1" >&2; exit 125; }; '
         'shift; n=$((n-1)); done; exec "$@"')
_instances = iter(range(1 << 62))
_warned: list[str] = []
RLIMITS_ONLY = ("a check's limits are the runner's rlimits, per process; memory the sandbox kernel holds for it and "
                "CPU across its processes are not capped")


class GvisorBackend(RemoteBackend):
    """One `runsc run` sandbox per check; the request, its result and its errors are the
    remote runner's (sandbox/remote.py)."""

    name = "gvisor"
    runner_uid = CHECK_UID
    environments = True  # a check's root is its environment's, its interpreter the environment's

    def __init__(
        self,
        concurrency: int = 0,
        runsc: str = "runsc",
        platform: str = "ptrace",
        grace_s: float = 20.0,
        python: str | None = None,
        hide: list[str] | None = None,
    ):
        super().__init__()
        self.concurrency = concurrency or default_slots()
        self.runsc = runsc
        self.platform = platform
        self.grace_s = grace_s
        self.python = python  # None: each environment's own interpreter (the default one's too)
        # Nothing of the host is in a check's root unless listed (sandbox/root.py); what the
        # grader names as its own is masked where a listed directory holds it, as locally.
        from rlvr_grade.sandbox.root import grader_paths

        self.hide = list(grader_paths(hide or ()))
        self._state: str | None = None
        self._bundles: dict[tuple[str, str], str] = {}  # (root language, env id) -> its bundle's config.json template
        self._worlds: dict[str, Any] = {}
        self._native: dict[str, tuple[str, ...]] = {}  # env id -> what its libraries need (_native_for)
        self._known: dict[str, Any] = {}  # env id -> the envs.Environment the grader resolved
        self._farm_locks: list[int] = []
        self._spec_lock = threading.Lock()
        self._procs: dict[int, subprocess.Popen] = {}  # the runsc of each check running
        self._lock = threading.Lock()
        self._version = ""
        self._mntns: int | None = None  # runsc's mount namespace (_noatime_namespace)
        self._slots: list[Any] = []  # cgroups.SlotCgroup per slot, each around one runsc at a time
        self._free: queue.Queue | None = None  # of the slots not running a check; None: no cgroups
        self.no_cgroup = ""  # why the limits are the rlimits alone ("" when the cgroups hold)

    def start(self) -> None:
        path = shutil.which(self.runsc)
        if path is None:
            raise SandboxError(f"the gvisor backend needs runsc, which is not installed: {INSTALL_HINT}")
        self.runsc = path
        if os.geteuid() != 0:
            raise SandboxError("the gvisor backend runs `runsc run`, which needs root here")
        self._state = tempfile.mkdtemp(prefix="rlvr-runsc-")
        self._mntns = _noatime_namespace()
        self._make_slots()
        try:
            out = subprocess.run([self.runsc, "--version"], capture_output=True, text=True, timeout=30)
            self._version = out.stdout.splitlines()[0] if out.stdout else ""
        except (OSError, subprocess.SubprocessError):
            self._version = ""
        self.seccomp_filter()  # compiled now: isolation() reports whether there is one
        # One real sandbox now, so a broken runsc is one clear error, not N sandbox_error rows.
        reply = self._runsc_run("python", [self._python(""), "-I", "-S", "-c", "pass"], b"", timeout=60)
        if reply.code != 0:
            self.close()
            raise SandboxError(f"runsc cannot start a sandbox (exit {reply.code}): {(reply.stderr or reply.stdout).strip()[-300:]}")

    def _make_slots(self) -> None:
        """One host cgroup per slot (see the module's doc), or none and one warning."""
        self.no_cgroup = ""
        try:
            self._slots = _slot_cgroups(self.concurrency)
        except OSError as exc:
            self.no_cgroup = f"no host cgroup for runsc here ({exc})"
            if self.no_cgroup not in _warned:
                _warned.append(self.no_cgroup)
                sys.stderr.write(f"Warning: gvisor: {self.no_cgroup}: {RLIMITS_ONLY}\n")
            return
        self._free = queue.Queue()
        for slot in self._slots:
            self._free.put(slot)

    def _world(self, env_id: str) -> Any:
        """The environment `env_id` ("" the default) as the local backend runs it (local.World)."""
        with self._spec_lock:
            world = self._worlds.get(env_id)
            if world is None:
                from rlvr_grade.sandbox.local import world_of

                world = self._worlds[env_id] = world_of(env_id, preload=(), known=self._known)
            return world

    def _native_for(self, env_id: str) -> tuple[str, ...]:
        """The raw-memory modules environment `env_id`'s own libraries cannot import without
        (pandas: ctypes), asked once per environment in a sandbox of its own, as the local
        seed asks (zygote.native_needs): a check refuses them to everyone, so its runner
        imports them first (inner.py --native). () when the question fails: the library then
        fails in the check, as it would."""
        with self._spec_lock:
            hit = self._native.get(env_id)
        if hit is not None:
            return hit
        from rlvr_grade.sandbox.local import boot_code
        from rlvr_harness.guard import NATIVE_MEMORY_MODULES

        found: tuple[str, ...] = ()
        needs = self._world(env_id).needs
        if needs:
            ask = boot_code("from rlvr_harness.guard import NATIVE_MEMORY_MODULES as N; from rlvr_grade.sandbox.zygote "
                            "import native_needs; print('NATIVE', ','.join(native_needs(sorted(N), %r)))" % (list(needs),),
                            inside=True)
            reply = self._runsc_run("python", [self._python(env_id), "-s", "-c", ask], b"", timeout=300, env_id=env_id)
            lines = [ln for ln in reply.stdout.splitlines() if ln.startswith("NATIVE")] if reply.code == 0 else []
            if lines:
                found = tuple(n for n in lines[-1][len("NATIVE"):].strip().split(",") if n in NATIVE_MEMORY_MODULES)
        with self._spec_lock:
            self._native[env_id] = found
        return found

    def add_environment(self, env: Any) -> None:
        if not env.default:
            self._known[env.id] = env

    def _python(self, env_id: str) -> str:
        """The interpreter's path inside the sandbox (root.ENV_AT for an environment's venv)."""
        if self.python and not env_id:
            return self.python
        python = self._world(env_id).python
        return os.path.join(ENV_AT, "bin", os.path.basename(python)) if _venv_of(python) else python

    def _host_python(self, world: Any) -> str:
        """The host path of the interpreter a sandbox over `world` runs (None: `python`'s)."""
        return world.python if world is not None else (self.python or sys.executable)

    def _spec(self, language: str, env_id: str = "") -> dict[str, Any]:
        """The OCI config of a check in `language` and environment `env_id` (without process
        args), built once."""
        world = None if self.python and not env_id else self._world(env_id)
        with self._spec_lock:
            cached = self._bundles.get((language, env_id))
            if cached is None:
                self._bundles[(language, env_id)] = cached = self._build_spec(language, world)
        return json.loads(cached)

    def _build_spec(self, language: str, world: Any = None) -> str:
        from rlvr_grade.sandbox import mounts, root
        from rlvr_grade.sandbox.local import CHECK_PATH, world_layout, world_root

        assert self._state is not None
        # The runner inside (sandbox/inner.py) is the grader's code: its package is in this root
        # beside the harness (root.HARNESS_AT), found by location (boot_code), never on the
        # check's sys.path.
        package = os.path.realpath(PACKAGE_DIR)
        if world is not None and world.fixed_names:
            # The environment's root as a local worker of it mounts it (local.world_layout, laid
            # out in its world): the venv at root.ENV_AT, the base interpreter at files.PYTHON_AT
            # with the stdlib snapshot (envs.stdlib_snapshot) in it, never the host's stdlib
            # folder (a file put there later, an answer file, would be in every root) or the
            # host's install names.
            layout = world_layout(world, language, CHECK_PATH, extra=(root.HARNESS_AT + "/rlvr_grade",), hide=tuple(self.hide))
        else:
            # This process's interpreter (`python` given), or an environment without a venv.
            want = world_root(world, language, CHECK_PATH) if world is not None else root.root_for(language, CHECK_PATH)
            want = want.union(root.Root(dirs=(package,), moved=((package, root.HARNESS_AT + "/rlvr_grade"),)))
            venv = _venv_of(world.python) if world is not None else None
            if venv:  # the environment's venv at root.ENV_AT: its prefix and files are /env's
                want = want.union(root.Root(moved=((venv, root.ENV_AT),)))
            layout = want.masking(self.hide).layout()
        # What is shown at /harness is a copy of the code that runs inside, its bytecode compiled
        # under those names by the interpreter that loads it (bundle.harness_copy), not the
        # checkout: the checkout's __pycache__ named the checkout in every code object.
        from rlvr_grade.sandbox.bundle import harness_copy

        copy, lock = harness_copy(self._host_python(world))
        self._farm_locks.append(lock)
        shown = {f"{root.HARNESS_AT}/{name}": os.path.join(copy, name) for name in ("rlvr_grade", "rlvr_harness")}
        if set(shown) - {path for path, _ in layout.mounts} or any(root.inside(p, at) and p != at for at in shown
                                                                    for p in (*layout.hidden, *(f for f, _ in layout.files))):
            raise SandboxError(f"gvisor: the root shows the harness otherwise than as the folders {sorted(shown)}")
        layout = dataclasses.replace(layout, mounts=tuple((path, shown.get(path, src)) for path, src in layout.mounts))
        farm, lock = root.materialize(layout)
        self._farm_locks.append(lock)
        etc = os.path.join(self._state, "etc")
        os.makedirs(etc, exist_ok=True)
        for name, text in zip(("passwd", "group"), mounts.passwd(CHECK_UID), strict=True):
            with open(os.path.join(etc, name), "w") as fh:
                fh.write(text)
            os.chmod(os.path.join(etc, name), 0o644)
        # The root's part under /tmp (an environment or a venv there), covered by the check's
        # fresh /tmp: bound back from the farm's skeleton first, the shown directories on top.
        binds = [{"destination": top, "type": "bind", "source": os.path.join(farm, top.lstrip("/")),
                  "options": ["rbind", "ro", "nosuid", "nodev"]} for top in mounts.tmp_resident(layout)]
        binds += [{"destination": path, "type": "bind", "source": src, "options": ["rbind", "ro", "nosuid", "nodev"]}
                  for path, src in layout.mounts]
        binds += [{"destination": path, "type": "tmpfs", "source": "tmpfs", "options": ["ro", "size=4k"]}
                  for path in layout.hidden]
        binds += [{"destination": f"/etc/{name}", "type": "bind", "source": os.path.join(etc, name), "options": ["bind", "ro"]}
                  for name in ("passwd", "group")]
        caps = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SYS_ADMIN"]
        spec = {
            "ociVersion": "1.0.0",
            "process": {
                "user": {"uid": 0, "gid": 0},
                "args": [],
                "env": [f"{k}={v}" for k, v in _ENV.items()],
                "cwd": "/",
                "capabilities": {k: caps for k in ("bounding", "effective", "permitted")},
                "rlimits": [{"type": "RLIMIT_NOFILE", "hard": 1024, "soft": 1024}],
            },
            "root": {"path": farm, "readonly": True},
            "hostname": "rlvr",
            "mounts": [
                {"destination": "/proc", "type": "proc", "source": "proc"},
                {"destination": "/dev", "type": "tmpfs", "source": "tmpfs"},
                # gVisor would add its own sysfs: an empty one instead, as in the local root.
                {"destination": "/sys", "type": "tmpfs", "source": "tmpfs", "options": ["ro", "size=4k"]},
                # The check's /tmp, size-capped per check in run() (the runner's workdir is in it).
                {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "mode=1777"]},
                *binds,
            ],
            "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")]},
        }
        return json.dumps(spec)

    def _runsc_run(self, language: str, argv: list[str], stdin: bytes, timeout: float, disk_mb: int = 64,
                   env_id: str = "", limits: Any = None, token: str = "") -> Reply:
        """Run argv in a fresh sandbox over `language`'s root, `stdin` on its standard input,
        in a slot's cgroup capped at `limits` (types.Limits; None: the defaults); the reply's
        code is None if we killed it at `timeout`. runsc's output goes through files: with
        pipes, `runsc` can hang on exit. `token`: the request's, whose STARTS_MARK starts the
        count of the sandbox's CPU against the check's limit."""
        assert self._state is not None
        spec = self._spec(language, env_id)
        spec["process"]["args"] = argv
        for m in spec["mounts"]:
            if m["destination"] == "/tmp":
                m["options"] = [*m["options"], f"size={int(disk_mb)}m"]
        bundle = tempfile.mkdtemp(prefix="bundle-", dir=self._state)
        cid = "rlvr-" + secrets.token_hex(8)
        with open(os.path.join(bundle, "config.json"), "w") as fh:
            json.dump(spec, fh)
        assert self._mntns is not None
        command = ["nsenter", f"--mount=/proc/self/fd/{self._mntns}", "--", self.runsc, f"--root={self._state}", f"--platform={self.platform}", "--network=none",
                   "--ignore-cgroups", "run", "--bundle", bundle, cid]
        slot = self._free.get() if self._free is not None else None
        try:
            return self._popen(command, stdin, timeout, slot, limits, token)
        finally:
            if slot is not None:
                assert self._free is not None
                self._free.put(slot)
            shutil.rmtree(bundle, ignore_errors=True)

    def _popen(self, command: list[str], stdin: bytes, timeout: float, slot: Any = None, limits: Any = None,
               token: str = "") -> Reply:
        from rlvr_grade.types import Limits
        from rlvr_harness import process

        limits = limits or Limits()
        cpu_limit = float(limits.cpu_s) * (1 + SENTRY_CPU_SHARE) + SENTRY_CPU_S
        waited_before = None
        if slot is not None:
            # Nothing of the check before carries over: its processes are gone (the cgroup is
            # empty), and its OOM kills, CPU and peak are marks this check is measured from.
            if not slot.empty():
                raise SandboxError("gvisor: a slot's cgroup still has processes of the check before it")
            try:
                slot.configure((int(limits.memory_mb) + SENTRY_MEMORY_MB) << 20,
                               SANDBOX_TASKS + TASKS_PER_PROCESS * int(limits.processes))
            except OSError as exc:  # the sandbox's failure, never the check's
                raise SandboxError(f"gvisor: cannot set the limits of a slot's cgroup: {exc}") from exc
            oom_before, peak_mark = slot.oom_kills(), slot.peak_mark()
            waited_before = slot.cpu_waited_us()
            files = slot.procs_files()
            # runsc starts in the slot's cgroup (the shell joins it, then execs): every process
            # it makes is born in it, none can fork before it is counted.
            command = ["/bin/sh", "-c", _JOIN, "sh", str(len(files)), *files, *command]
        with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            inp.write(stdin)
            inp.seek(0)
            proc = subprocess.Popen(
                command,
                pass_fds=() if self._mntns is None else (self._mntns,),
                stdin=inp,
                stdout=out,
                stderr=err,
                cwd="/",
                env={"PATH": "/usr/local/bin:/usr/bin:/bin"},
                start_new_session=True,
            )
            t0 = time.monotonic()
            start: list[int] = []  # the slot's CPU counter when the check's process was made
            mark = f"{STARTS_MARK} {token}\n".encode()

            def cpu_used() -> float | None:
                if not start:
                    # the runner writes the mark first thing on its stdout (inner._announce)
                    if not token or mark not in os.pread(out.fileno(), len(mark) + 4096, 0):
                        return 0.0
                    start.append(slot.cpu_ns() or 0)
                now = slot.cpu_ns()
                return None if now is None else (now - start[0]) / 1e9

            def waited() -> float | None:
                # runsc's host threads (the sentry's) wait for the check: the deadline moves by it.
                if waited_before is not None:
                    now = slot.cpu_waited_us()
                    if now is not None:
                        return (now - waited_before) / 1e6
                return process.threads_waited(slot.processes())

            def kill() -> None:
                _kill_group(proc.pid)
                if slot is not None:
                    slot.kill_all()

            with self._lock:
                self._procs[proc.pid] = proc
            try:
                ended = process.collect(proc.pid, [], t0=t0, wall_s=timeout, kill=kill, cpu_limit=cpu_limit,
                                        cpu_used=cpu_used if slot is not None else None, ncpu=os.cpu_count() or 1,
                                        waited=waited if slot is not None else None, cpu_every_s=0.05)
            finally:
                with self._lock:
                    self._procs.pop(proc.pid, None)
            proc.returncode = ended.exit_code if ended.exit_code is not None else -(ended.signal or 0)
            around = None
            if slot is not None:
                used = cpu_used() if start else 0.0
                around = Around(cpu_s=used or 0.0, cpu_limit=cpu_limit, oom=slot.oom_kills() > oom_before,
                                peak_memory_mb=slot.peak_since(peak_mark) / 2**20, wall_s=ended.wall_s)
                slot.empty()
            out.seek(0)
            err.seek(0)
            return Reply(None if ended.killed_for_wall else proc.returncode, out.read().decode("utf-8", "replace"),
                         err.read().decode("utf-8", "replace"), around)

    def exchange(self, check: Check, request: Request) -> Reply:
        if self._state is None:
            raise SandboxError("gvisor backend used before start()")
        from rlvr_grade.sandbox.local import boot_code
        from rlvr_grade.sandbox.zygote import root_language

        # The runner found by location (boot_code), not through PYTHONPATH: the environment's
        # interpreter sees its own site-packages and the harness, nothing else.
        boot = boot_code("import runpy; runpy.run_module('rlvr_grade.sandbox.inner', run_name='__main__', alter_sys=True)",
                         inside=True)
        argv = [self._python(check.env), "-s", "-c", boot, "--request", "-", "--mode", "light"]
        native = self._native_for(check.env) if check.env else ()
        if native:
            argv += ["--native", ",".join(native)]
        return self._runsc_run(root_language(request.message.payload), argv, request.encoded(), request.deadline_s,
                               int(check.limits.disk_mb), env_id=check.env, limits=check.limits, token=request.token)

    def request(self, check: Check) -> Request:
        req = super().request(check)
        # STARTS_MARK: the sandbox's CPU is counted from there
        return dataclasses.replace(req, message=dataclasses.replace(req.message, announce=True))

    def close(self) -> None:
        with self._lock:
            procs = list(self._procs.values())
        for proc in procs:
            _kill_group(proc.pid)  # their collectors reap them
        for slot in self._slots:
            slot.empty()
            slot.remove()
        self._slots = []
        self._free = None
        if self._state is not None:
            shutil.rmtree(self._state, ignore_errors=True)
            self._state = None
        self._bundles.clear()
        for fd in self._farm_locks:
            os.close(fd)
        self._farm_locks.clear()
        if self._mntns is not None:
            os.close(self._mntns)
            self._mntns = None

    def fingerprint(self) -> dict[str, Any]:
        import platform

        return {"backend": self.name, "runsc": self._version, "python": platform.python_version(),
                **({"interpreter": self.python} if self.python else {})}

    def toolchain(self, language: str) -> dict[str, Any] | None:
        # The host's toolchain, read-only under the overlay, on the runner's fixed PATH.
        if language == "python":
            return None
        from rlvr_harness import languages

        return languages.toolchain_versions(language, "/usr/local/bin:/usr/bin:/bin")

    def isolation(self) -> dict[str, Any]:
        return {
            "boundary": f"gVisor user-space kernel (runsc run, {self.platform} platform), one sandbox per check",
            "network": "none (--network=none)",
            "filesystem": "allowlisted root (the local backend's), read-only; fresh tmpfs /tmp; gVisor's own /dev and /proc; no /sys",
            "inside": "rlimits (RLIMIT_AS memory), dropped uid, own CPU/wall timers, "
                      + ("the local backend's seccomp allowlist" if self.seccomp_filter() else "no seccomp filter (no syscall table for this architecture)"),
            "limits": self.limits_summary(),
        }

    def limits_summary(self) -> str:
        """How the check's limits reach the whole sandbox in this run (one line, for the summary)."""
        if self.no_cgroup:
            return f"rlimits only, per process: {self.no_cgroup}"
        return (f"a host cgroup per slot around runsc: memory at the check's limit + {SENTRY_MEMORY_MB} MiB for the "
                f"sandbox kernel, no swap, {SANDBOX_TASKS} host tasks + {TASKS_PER_PROCESS} per process; CPU of the "
                f"whole sandbox from the check's start, at {1 + SENTRY_CPU_SHARE:g}x the check's limit + {SENTRY_CPU_S:g} s")


def _slot_cgroups(count: int) -> list[Any]:
    """`count` slot cgroups (cgroups.SlotCgroup) for runsc trees, each with memory, pids and
    CPU accounting, their limits writable; OSError (naming what is missing) when not here."""
    from rlvr_grade.sandbox import cgroups

    if cgroups.cgroup_version() is None:
        raise OSError(f"no cgroup v1 memory+pids hierarchy and no cgroup v2 mount at {cgroups.ROOT}")
    cgroups.sweep_dead(cgroups.GVISOR_NAME)  # a SIGKILLed grader's slots
    tag = f"gvisor-{os.getpid()}-{next(_instances)}"
    made: list[Any] = []
    try:
        for i in range(count):
            slot = cgroups.SlotCgroup(f"{tag}-slot{i}")
            made.append(slot)
            if slot.cpu_ns() is None:
                raise OSError("no CPU accounting (cpuacct) for its cgroups")
            slot.configure(256 << 20, SANDBOX_TASKS)  # writable, or no slots at all
    except OSError:
        for slot in made:
            slot.remove()
        raise
    return made


def limits_here() -> str:
    """How the gVisor backend's limits would reach a check on this machine (doctor's line): a
    slot cgroup is made and removed to be sure."""
    try:
        for slot in _slot_cgroups(1):
            slot.remove()
    except OSError as exc:
        return f"rlimits only, per process (no host cgroup for runsc here: {exc}): {RLIMITS_ONLY}"
    return (f"the whole sandbox: a host cgroup per slot around runsc (memory: the check's limit + {SENTRY_MEMORY_MB} MiB; "
            f"CPU of every process: {1 + SENTRY_CPU_SHARE:g}x the check's limit + {SENTRY_CPU_S:g} s)")


_NAMESPACE_BUILDER = """
import os, socket, sys
sys.path.insert(0, sys.argv[1])
from rlvr_grade.sandbox import linux
sock = socket.socket(fileno=int(sys.argv[2]))
linux.unshare(linux.CLONE_NEWNS)
linux.mount_setattr_recursive("/", linux.MOUNT_ATTR_NOATIME, propagation=linux.MS_SLAVE, clear=linux.MOUNT_ATTR__ATIME)
socket.send_fds(sock, [b"ok"], [os.open("/proc/self/ns/mnt", os.O_RDONLY)])
"""


def _noatime_namespace() -> int:
    """A descriptor of a mount namespace like the grader's, but with every mount `noatime`
    (and a slave of the grader's: what is mounted later still shows). runsc starts in it
    (nsenter), so no read in a check moves a host file's access time: the gofer reaches the
    root's files through the host's inodes, where `relatime` recorded the first read after a
    change, readable with stat() by any other check. Built by a short-lived interpreter, not
    a fork of this (threaded) process."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        proc = subprocess.run([sys.executable, "-I", "-c", _NAMESPACE_BUILDER, os.path.dirname(PACKAGE_DIR), str(theirs.fileno())],
                              pass_fds=(theirs.fileno(),), capture_output=True, text=True, timeout=60)
        theirs.close()
        msg, fds, _flags, _addr = socket.recv_fds(ours, 16, 1) if proc.returncode == 0 else (b"", [], 0, None)
    finally:
        ours.close()
        theirs.close()
    if msg != b"ok" or not fds:
        raise SandboxError(f"the gvisor backend could not make runsc's mount namespace: {proc.stderr.strip()[-300:]}")
    os.set_inheritable(fds[0], False)
    return fds[0]


def _venv_of(python: str) -> str | None:
    """The venv folder `python` (its bin/python) belongs to, or None."""
    venv = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    return venv if os.path.isfile(os.path.join(venv, "pyvenv.cfg")) else None


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass

