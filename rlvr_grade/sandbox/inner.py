"""Run ONE check from a request file and print its wire result: the piece of the grader that
runs *inside* someone else's sandbox (a Beam container, a `runsc run` gVisor sandbox).

    python3 -m rlvr_grade.sandbox.inner --request check.json [--mode auto|full|light]

The request is a CheckRequest (rlvr_harness/wire.py: the payload and limits LocalBackend sends
its zygote, and the token, seccomp program, uid and flags only this runner reads). The result is one line on stdout, `RLVR-RESULT <token> <json>`, carrying the same
dict the local zygote returns (exit code, capped output, rusage, harness records).

Two isolation modes, picked by probing (`auto`):
- `full`: exactly the local sandbox's child (sandbox/zygote.py): pid/mount/ipc/uts/net
  namespaces, read-only root, tmpfs /tmp, cgroup, rlimits, dropped uid. Works where the
  kernel allows it (a root process on a normal Linux host, e.g. the fake Beam gateway).
- `light`: for when the *outer* sandbox is the boundary (gVisor, where changing the root's
  mount propagation fails): a fresh workdir, rlimits including RLIMIT_AS for memory, a
  dropped uid so RLIMIT_NPROC binds, no_new_privs, and a network namespace if allowed.

The request file is deleted as soon as it is read, so the check cannot read the token that
authenticates the result line; the candidate's stdout/stderr go to pipes, never to ours.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import secrets
import sys
import tempfile
import threading
from typing import Any

from rlvr_grade.sandbox.zygote import THREAD_VARS, Zygote
from rlvr_harness.wire import CheckRequest, WorkerInit

RESULT_MARK = "RLVR-RESULT"
# Written on stdout, `STARTS_MARK <token>`, just before the check's process is made, when the
# request asks (`announce`): the gVisor backend counts the whole sandbox's CPU from there
# (gvisor.py), so the runner's own start-up is not billed to the check. Nothing of the check
# has run yet when it is written, so no check can write it early or keep it from being written.
STARTS_MARK = "RLVR-CHECK-STARTS"
# Uids for the check's process. Distinct per concurrent check where the pid is unique, because
# RLIMIT_NPROC counts every process of a uid, not just the check's own.
UID_BASE = 300000
CHILD_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    # pytest reads this when the check's session starts: without it, entry-point plugin
    # discovery scans every installed distribution (seconds of CPU under gVisor) and a
    # planted plugin could load.
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    **THREAD_VARS,  # as in a local check: numeric libraries' pools at one thread
}


# The harness's C extensions and what each must offer here: the defences they carry (the frame
# fence, the dict tags the restorer trusts, the array and mmap item seals in _dictver; the array
# interface's checks and numpy's seal in _arrays) are off in a process that lacks them. They are
# shipped built (bundle.extension_files); a runner that cannot load them from its own harness
# folder (an image of another Python, ABI or architecture, a file missing or broken) refuses
# the check rather than grade it with a defence off (issue 15).
EXTENSIONS = {
    "_dictver": ("tags", "held", "put_back", "seal_array_items", "seal_mmap_items", "fence_frames"),
    "_arrays": ("arm", "install", "prepare", "seal", "supported"),
}


class MissingDefence(RuntimeError):
    """This runner's interpreter cannot load a harness extension: the check is not run."""


def require_extensions() -> None:
    """Import every harness extension from the harness's own folder and check it offers what
    EXTENSIONS lists; raise MissingDefence naming the extension and this interpreter if not."""
    import platform
    from importlib.machinery import EXTENSION_SUFFIXES

    import rlvr_harness

    where = [os.path.realpath(p) for p in rlvr_harness.__path__]
    python = f"Python {platform.python_version()} ({sys.implementation.cache_tag}, {platform.machine()})"
    for name, features in EXTENSIONS.items():
        full = f"rlvr_harness.{name}"
        try:
            mod = importlib.import_module(full)
        except Exception as exc:  # noqa: BLE001 - ImportError, or a module that fails as it loads
            present = sorted(f for d in where if os.path.isdir(d) for f in os.listdir(d) if f.startswith(name + "."))
            raise MissingDefence(
                f"{full} cannot be loaded by this image's {python}, which loads {EXTENSION_SUFFIXES[0]} files; "
                f"the harness has {', '.join(present) or 'no build of it'} ({type(exc).__name__}: {exc}). "
                "Not graded with its defences off: use an image with the grader's Python") from None
        origin = os.path.realpath(getattr(mod, "__file__", None) or "")
        if os.path.dirname(origin) not in where:
            raise MissingDefence(f"{full} was loaded from {origin or 'nowhere'}, not from the harness shipped with this runner")
        missing = [f for f in features if not hasattr(mod, f)]
        if missing or (name == "_arrays" and not mod.supported()):
            lacks = ", ".join(missing) or "a patchable extension table on this platform"
            raise MissingDefence(f"{full} on this image's {python} lacks {lacks}: not graded with that defence off")


def parse_result(stdout: str, token: str) -> dict[str, Any] | None:
    """Find the result line for `token` in the inner runner's stdout (None if absent)."""
    prefix = f"{RESULT_MARK} {token} "
    for line in reversed(stdout.splitlines()):
        if line.startswith(prefix):
            try:
                value = json.loads(line[len(prefix):])
            except (ValueError, RecursionError):
                return None
            return value if isinstance(value, dict) else None
    return None


def _probe_full() -> bool:
    """Can this process build the local sandbox's child? Tried in a throwaway fork, because
    namespaces, once entered, cannot be left."""
    if os.geteuid() != 0:
        return False
    from rlvr_grade.sandbox import linux

    def as_the_child() -> None:
        linux.unshare(linux.CLONE_NEWNS | linux.CLONE_NEWPID | linux.CLONE_NEWNET)
        linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
        linux.mount("tmpfs", "/tmp", "tmpfs", linux.MS_NOSUID, "size=1m")
        linux.mount_setattr_recursive("/", linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID)

    return linux.probe(as_the_child) == 0


def _preload(worker: str) -> None:
    # The child may run after the directory holding this package is masked (full mode hides
    # the working directory): import everything it needs now.
    from rlvr_grade.sandbox.zygote import preload_harness

    preload_harness()

    if worker == "pytest":
        # Import pytest in this (unlimited) parent: the check's CPU budget then pays for its
        # own tests, not for pytest's import, which under gVisor's ptrace platform alone can
        # exceed a 1 s limit. (A full warm-up session, as the local zygote runs, cost 3.4 s
        # of wall time here and saved the child no CPU.)
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        try:
            import _pytest.python  # noqa: F401
            import pytest  # noqa: F401
            from _pytest.config import default_plugins, essential_plugins
        except ImportError:
            pass
        else:
            # Every plugin the session loads, loaded before the candidate runs, as the local
            # worker's warm-up session has them: code of a plugin first imported in the check
            # is a library loaded late, and the recorder refuses its fixtures (unittest's
            # setUpClass fixture: every TestCase row was a runtime_error here, red team rty).
            for name in dict.fromkeys((*essential_plugins, *default_plugins)):
                try:
                    importlib.import_module(f"_pytest.{name}")
                except ImportError:
                    pass
    # The child then shares the parent's heap instead of copying it page by page when its
    # garbage collector walks it: copy-on-write faults are slow under gVisor's ptrace platform.
    gc.collect()
    gc.freeze()


def run_full(req: CheckRequest) -> dict[str, Any]:
    """The local sandbox's child, one check, in this process's own slot."""
    from rlvr_grade.sandbox.cgroups import INNER_NAME, SlotCgroup, cgroup_version, sweep_dead

    if cgroup_version():
        # A runner SIGKILLed mid-check (its sandbox stopped) never removes its cgroup: the next
        # runner on the host does.
        sweep_dead(INNER_NAME)
    cg_name = f"inner-{os.getpid()}-{secrets.token_hex(4)}" if cgroup_version() else None
    # The check's root is the allowlisted one (sandbox/root.py): this runner's interpreter, its
    # site-packages and the rlvr_grade package it was unpacked as; nothing else of the sandbox's
    # filesystem (its working directory, the request's folder) is in it.
    cfg = WorkerInit(slot=0, uid=UID_BASE + os.getpid() % 100000, isolate=True, cgroup=cg_name, env=dict(CHILD_ENV))
    zygote = Zygote(cfg)
    _use_shipped_filter(zygote, req)
    _announce(req)
    try:
        return zygote.execute(req)
    finally:
        if zygote.cgroup is not None:
            zygote.cgroup.kill_all()
            zygote.cgroup.remove()
        elif cg_name:
            try:
                SlotCgroup(cg_name).remove()
            except OSError:
                pass


def run_light(req: CheckRequest) -> dict[str, Any]:
    """The outer sandbox is the boundary; add what it lacks per check (see module doc)."""
    from rlvr_grade.sandbox import linux

    network = "outer sandbox's policy"
    if os.geteuid() == 0:
        try:
            linux.unshare(linux.CLONE_NEWNET)
            network = "own empty network namespace"
        except OSError:
            pass
    shm = _shm_in_tmp() if os.geteuid() == 0 else "the outer sandbox's"
    # A uid of the request's choice (the gVisor backend names the one its generated /etc/passwd
    # lists), else one distinct per concurrent runner on the same kernel.
    uid = req.uid or UID_BASE + os.getpid() % 100000
    cfg = WorkerInit(slot=0, uid=uid, isolate=False, env=dict(CHILD_ENV))
    zygote = LightZygote(cfg)
    _use_shipped_filter(zygote, req)
    _announce(req)
    resp = zygote.execute(req)
    resp["inner"] = {"mode": "light", "network": network, "shm": shm}
    return resp


def _announce(req: CheckRequest) -> None:
    if req.announce:
        os.write(1, f"{STARTS_MARK} {req.token}\n".encode())


def _use_shipped_filter(zygote: Zygote, req: CheckRequest) -> None:
    """Where this runner compiled no filter of its own (light mode): the
    grader's (req.seccomp, seccomp.Filter.portable), when made for this architecture, with
    the result channel where that program keeps it."""
    if zygote.filter is not None or not req.seccomp:
        return
    from rlvr_grade.sandbox.seccomp import Filter

    zygote.filter = Filter.from_portable(req.seccomp)
    if zygote.filter is not None and zygote.filter.channel_fd is not None:
        zygote.chan = zygote.filter.channel_fd


def _under_tmp() -> bool:
    from rlvr_grade.sandbox import PACKAGE_DIR

    return any(os.path.realpath(p).startswith("/tmp/") for p in (sys.prefix, PACKAGE_DIR))


# Where the check's POSIX shared memory lives when the outer sandbox's /dev/shm is not the
# check's to write (gVisor's: root's, 0755): a folder of its /tmp, so the two share one cap.
SHM_IN_TMP = "/tmp/.dev-shm"


def _shm_in_tmp() -> str:
    """Give the check a writable /dev/shm where the outer sandbox's is not (gVisor's is root's,
    mode 0755: every multiprocessing Lock, Queue and Pool failed, honest code scoring 0): a
    symlink to a folder of the check's own /tmp, one cap for both as in a local check. Left as
    it is where it is writable (a Beam container's 1777) or /tmp is not the check's own (this
    runner unpacked there). Says what it did, for the reply; a failure leaves /dev/shm as the
    outer sandbox made it (closed: the check cannot write there, never more room)."""
    import stat

    from rlvr_grade.sandbox import linux, mounts

    try:
        st = os.lstat("/dev/shm")
    except OSError:
        st = None
    if st is not None and (stat.S_ISLNK(st.st_mode) or st.st_mode & 0o002):
        return "the outer sandbox's"
    if _under_tmp():
        return "the outer sandbox's (this runner is in /tmp)"
    try:
        if st is not None:
            try:
                linux.umount("/dev/shm", mounts.MNT_DETACH)  # gVisor mounts a tmpfs there
            except OSError:
                pass
            os.rmdir("/dev/shm")
        os.mkdir(SHM_IN_TMP, 0o1777)
        os.chmod(SHM_IN_TMP, 0o1777)
        os.symlink(SHM_IN_TMP, "/dev/shm")
    except OSError as exc:
        return f"the outer sandbox's, not writable ({exc.strerror})"
    return f"a folder of the check's /tmp ({SHM_IN_TMP})"


class LightZygote(Zygote):
    """Zygote.execute/_collect (fork, pipes, wall deadline, rusage) with a child set up for an
    outer kernel boundary instead of local namespaces."""

    def _child(self, payload, limits, nonce, res_w, out_w, err_w, setup_w) -> None:  # pragma: no cover - child
        _light_child(self.cfg, payload, limits, nonce, res_w, out_w, err_w, setup_w, self.chan, self.filter)


def _light_child(cfg: Any, payload, limits, nonce, res_w, out_w, err_w, setup_w, chan: int,
                 filt=None) -> None:  # pragma: no cover
    from rlvr_grade.sandbox import linux
    from rlvr_grade.sandbox.zygote import child_descriptors, enter_workdir, run_candidate, write_files
    from rlvr_harness.limits import check_rlimits
    from rlvr_harness.process import set_check_rlimits

    child_descriptors(res_w, out_w, err_w, setup_w, chan)
    base = tempfile.mkdtemp(prefix="rlvr-check-")
    workdir, testdir = os.path.join(base, "w"), os.path.join(base, "t")
    os.makedirs(workdir)
    os.makedirs(testdir)
    write_files(payload, workdir, testdir)
    os.chmod(testdir, 0o1777)  # tests may write beside themselves, not replace themselves
    drop = os.geteuid() == 0
    if drop:
        os.chown(base, cfg.uid, cfg.uid)
        os.chown(workdir, cfg.uid, cfg.uid)
    # The local sandbox's rlimits (rlvr_harness/limits.py), as for a check with no cgroup: RLIMIT_CPU
    # is then the CPU limit and RLIMIT_AS the memory limit.
    set_check_rlimits(check_rlimits(limits, has_cgroup=False))
    if drop:
        # Root ignores RLIMIT_NPROC, and a root check could signal or read its grader.
        os.setgroups([])
        os.setresgid(cfg.uid, cfg.uid, cfg.uid)
        os.setresuid(cfg.uid, cfg.uid, cfg.uid)
    try:
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        linux.prctl(linux.PR_SET_DUMPABLE, 0)
    except OSError:
        pass
    enter_workdir(cfg.env, workdir, base)
    if filt is not None:
        filt.load()  # the local backend's allowlist, compiled by the grader (run_light)
    run_candidate(payload, nonce, chan, workdir, testdir)


def _pidfd_fallback(pid: int) -> int:
    """A pipe that turns readable when `pid` exits: what the collector polls when the kernel
    has no pidfd_open (gVisor's 2022 release returns ENOSYS). WNOWAIT leaves the zombie for
    the collector's own wait4, which reads the rusage."""
    r, w = os.pipe()

    def watch() -> None:
        try:
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        except OSError:
            pass
        try:
            os.write(w, b"x")
        except OSError:
            pass  # the collector already gave up on this pipe
        os.close(w)

    threading.Thread(target=watch, daemon=True).start()
    return r


def _ensure_pidfd() -> None:
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        os.pidfd_open = _pidfd_fallback  # type: ignore[assignment] - this process runs one check only


def run_request(wire: dict[str, Any] | CheckRequest, mode: str = "auto", warmed: bool = False) -> dict[str, Any]:
    """Run one check request in this process; returns the wire dict. `warmed`: this process
    is a warm seed (warm.py) that already imported what the check's kind needs. A malformed
    request raises WireError naming the field."""
    req = wire if isinstance(wire, CheckRequest) else CheckRequest.from_wire(wire)
    require_extensions()
    if not warmed:
        _preload(req.payload.worker)
    _ensure_pidfd()
    if mode == "auto":
        mode = "full" if _probe_full() else "light"
    if mode == "full":
        resp = run_full(req)
        resp["inner"] = {"mode": "full"}
        return resp
    return run_light(req)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rlvr_grade.sandbox.inner", description=__doc__.split("\n")[0])
    ap.add_argument("--request", required=True,
                    help="JSON file with payload, limits and token (deleted once read); - reads it from stdin")
    ap.add_argument("--mode", choices=("auto", "full", "light"), default="auto")
    ap.add_argument("--keep-request", action="store_true", help="do not delete the request file")
    ap.add_argument("--native", default="",
                    help="raw-memory modules the environment's libraries need (ctypes for pandas), imported before "
                         "the check, which refuses them to everyone (gVisor backend: GvisorBackend._native_for)")
    args = ap.parse_args(argv)
    if args.native:
        import importlib

        from rlvr_harness.guard import NATIVE_MEMORY_MODULES

        for name in args.native.split(","):
            if name in NATIVE_MEMORY_MODULES:
                try:
                    importlib.import_module(name)
                except ImportError:
                    pass  # the library fails in the check, as it would
    if args.request == "-":  # the gVisor backend: no file of it exists in the sandbox at all
        req = json.loads(sys.stdin.buffer.read())
        os.close(0)
    else:
        with open(args.request, encoding="utf-8") as fh:
            req = json.load(fh)
        if not args.keep_request:
            os.unlink(args.request)
    os.write(1, answer(req, args.mode).encode())
    return 0


def answer(req: dict[str, Any] | CheckRequest, mode: str = "auto", warmed: bool = False) -> str:
    """Run one check request and return its result line (a failure of this runner included,
    as `sandbox_error`; a malformed request too, under the token it carries if any)."""
    token = req.token if isinstance(req, CheckRequest) else str(req.get("token", "")) if isinstance(req, dict) else ""
    try:
        resp = run_request(req, mode, warmed)
    except BaseException as exc:  # noqa: BLE001 - the caller turns this into sandbox_error
        resp = {"sandbox_error": f"{type(exc).__name__}: {exc}"}
    return f"{RESULT_MARK} {token} {json.dumps(resp, separators=(',', ':'))}\n"


if __name__ == "__main__":
    sys.exit(main())
