"""The gVisor backend: every check in its own `runsc run` sandbox (a user-space kernel between
the check and the host), running the same inner runner the Beam backend ships.

The sandbox's filesystem is the local backend's allowlisted root (sandbox/root.py), from the
same farm: an OCI bundle whose read-only rootfs is the farm and whose read-only bind mounts are
the root's directories, plus a fresh tmpfs /tmp, gVisor's own /dev and /proc, no /sys, and
generated /etc/passwd and /etc/group. The request reaches the runner on stdin, so no file of
it exists inside. No network (`--network=none`); the runner adds rlimits (RLIMIT_AS for
memory: there is no cgroup inside), a dropped uid and its own CPU/wall timers.

Facts this module leans on (notes/sandbox-costs.md): the ptrace platform works on these
machines, `--platform=kvm` hangs; runsc's own output must go to files, not pipes; a killed
runsc leaves its `runsc-NNNNNN` cgroups behind, so we run with `--ignore-cgroups` (we set no
cgroup limits through runsc anyway) and nothing is left to clean up.

runsc runs in a mount namespace of its own where every mount is `noatime` (`_noatime_namespace`):
its gofer reads the root's files through the host's inodes (the farm's hard links, the shown
directories), and with the host's atime rules a read from one check moved an access time that
another check (or the host) could stat: a channel between concurrent checks."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from typing import Any

from rlvr_grade.sandbox import PACKAGE_DIR
from rlvr_grade.sandbox.remote import RemoteBackend, Reply, Request
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
        from rlvr_grade.pool import default_slots

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
        self._procs: dict[int, subprocess.Popen] = {}
        self._lock = threading.Lock()
        self._version = ""
        self._mntns: int | None = None  # runsc's mount namespace (_noatime_namespace)

    def start(self) -> None:
        path = shutil.which(self.runsc)
        if path is None:
            raise SandboxError(f"the gvisor backend needs runsc, which is not installed: {INSTALL_HINT}")
        self.runsc = path
        if os.geteuid() != 0:
            raise SandboxError("the gvisor backend runs `runsc run`, which needs root here")
        self._state = tempfile.mkdtemp(prefix="rlvr-runsc-")
        self._mntns = _noatime_namespace()
        try:
            out = subprocess.run([self.runsc, "--version"], capture_output=True, text=True, timeout=30)
            self._version = out.stdout.splitlines()[0] if out.stdout else ""
        except (OSError, subprocess.SubprocessError):
            self._version = ""
        self.seccomp_filter()  # compiled now: isolation() reports whether there is one
        # One real sandbox now, so a broken runsc is one clear error, not N sandbox_error rows.
        code, out, err = self._runsc_run("python", [self._python(""), "-I", "-S", "-c", "pass"], b"", timeout=60)
        if code != 0:
            raise SandboxError(f"runsc cannot start a sandbox (exit {code}): {(err or out).strip()[-300:]}")

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
            code, out, _err = self._runsc_run("python", [self._python(env_id), "-s", "-c", ask], b"", timeout=300, env_id=env_id)
            lines = [ln for ln in out.splitlines() if ln.startswith("NATIVE")] if code == 0 else []
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
        from rlvr_grade.sandbox.local import CHECK_PATH, world_root

        assert self._state is not None
        # The environment's root as its own interpreter lists it (the local workers' very list);
        # with an interpreter given (`python`), this process's.
        want = world_root(world, language, CHECK_PATH) if world is not None else root.root_for(language, CHECK_PATH)
        # The runner inside (sandbox/inner.py) is the grader's code: its package is in this root
        # beside the harness (root.HARNESS_AT), found by location (boot_code), never on the
        # check's sys.path.
        package = os.path.realpath(PACKAGE_DIR)
        want = want.union(root.Root(dirs=(package,), moved=((package, root.HARNESS_AT + "/rlvr_grade"),)))
        # The environment's venv at root.ENV_AT: the interpreter starts inside the root, so its
        # prefix, sys.path and every module's file name are those of /env, not the cache folder's.
        venv = _venv_of(world.python) if world is not None else None
        if venv:
            want = want.union(root.Root(moved=((venv, root.ENV_AT),)))
        layout = want.masking(self.hide).layout()
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

    def _runsc_run(self, language: str, argv: list[str], stdin: bytes, timeout: float,
                   disk_mb: int = 64, env_id: str = "") -> tuple[int | None, str, str]:
        """Run argv in a fresh sandbox over `language`'s root, `stdin` on its standard input;
        (exit code or None if we killed it, stdout, stderr). runsc's output goes through
        files: with pipes, `runsc` can hang on exit."""
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
        try:
            return self._popen(command, stdin, timeout)
        finally:
            shutil.rmtree(bundle, ignore_errors=True)

    def _popen(self, command: list[str], stdin: bytes, timeout: float) -> tuple[int | None, str, str]:
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
            with self._lock:
                self._procs[proc.pid] = proc
            try:
                code: int | None = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                code = None
            finally:
                with self._lock:
                    self._procs.pop(proc.pid, None)
            out.seek(0)
            err.seek(0)
            return code, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")

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
        code, out, err = self._runsc_run(root_language(request.body["payload"]), argv, request.encoded(),
                                         request.deadline_s, int(check.limits.disk_mb), env_id=check.env)
        return Reply(code, out, err)

    def close(self) -> None:
        with self._lock:
            procs = list(self._procs.values())
        for proc in procs:
            _kill_group(proc)
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
                      + ("the local backend's seccomp allowlist" if self.seccomp_filter() else "no seccomp filter (libseccomp missing)"),
        }


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


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass

