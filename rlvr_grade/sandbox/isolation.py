"""Isolate the calling process *now*: the per-check steps of the local sandbox as a reusable
function, for the zygote's forked child and for any worker that forks checks itself (a warm
worker inside a gVisor or Beam sandbox can apply the same namespaces, mounts, rlimits, uid
drop and seccomp).

Call order, in a freshly forked single-threaded child:

    enter_filesystem(plan, disk_mb, t)   # namespaces: a copy of make_template()'s tree, tmpfs
    ... write the check's files into WORKDIR / TESTDIR ...
    drop_privileges(plan, limits)        # rlimits, uid (or nested user namespace), no_new_privs
    filter.load()                        # seccomp last: the steps above need mount/unshare

What the caller must have done first: for `mode="root"`, be root; for `mode="userns"`, be
root *inside* a user namespace that owns the current pid namespace (see
zygote.become_userns_init). A fresh /proc shows only the check's processes when the caller
was forked into a new pid namespace (unshare(CLONE_NEWPID) before fork); the network is cut
by whatever network namespace the caller sits in (the zygote unshares an empty one per slot)."""

from __future__ import annotations

import math
import os
import resource
from dataclasses import dataclass, field
from typing import Any

from rlvr_grade.sandbox import linux, mounts

WORKDIR = "/tmp/w"
TESTDIR = "/tmp/t"
CHECK_UID = 1000  # what a check sees as its uid inside a user namespace


@dataclass(frozen=True)
class IsolationPlan:
    """How one worker isolates each check. `mode`: "root" (drop to `uid`), "userns" (nested
    user namespace mapped to CHECK_UID), "none" (nothing). `fs_plan` is mounts.plan(hide)."""

    mode: str
    uid: int = 65534
    fs_plan: dict[str, list] = field(default_factory=lambda: {"masks": [], "files": []})
    nproc_base: int = 0  # userns: RLIMIT_NPROC counts the grader's own processes too
    has_cgroup: bool = False  # memory is capped by a cgroup (else RLIMIT_AS), CPU watched outside
    tmp_keep: tuple[str, ...] = ()  # interpreter paths under /tmp, bound back into the fresh /tmp

    @property
    def isolated(self) -> bool:
        return self.mode != "none"


def join_cgroup(dirs: list[str]) -> None:
    """Move the calling (single-threaded) process into the given cgroup directories (one per
    v1 hierarchy). On v1, "0" written to `tasks` moves just the calling thread, which the
    kernel (6.0+) does without the global threadgroup rwsem that `cgroup.procs` takes: that
    lock waits for an RCU grace period, ~1 ms CPU and up to ~15 ms of waiting per check on
    a loaded machine. A single-threaded process moved by its only thread is moved whole."""
    for d in dirs:
        try:  # os-level calls: no file object to build, and no stat() first
            fd = os.open(os.path.join(d, "tasks"), os.O_WRONLY | os.O_CLOEXEC)
        except FileNotFoundError:  # cgroup v2 has no `tasks`
            fd = os.open(os.path.join(d, "cgroup.procs"), os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)


def make_template(plan: IsolationPlan) -> int:
    """Build, once per worker, the mount namespace every check starts from: the host tree,
    private, the grader's folders masked, read-only and nosuid. Returns an fd holding it (the
    short-lived process that built it is gone). A check then copies it (setns + unshare) and
    only mounts its own /tmp, /dev/shm and /proc: the masks, the propagation change and the
    recursive read-only pass were ~1 ms of every check, and tearing down the masks' tmpfs
    instances at each check's exit more."""
    import socket

    # The builder hands its namespace over as a descriptor (SCM_RIGHTS): /proc/<pid>/ns/mnt is
    # not reachable from a worker in its own pid namespace (the unprivileged mode), whose /proc
    # shows the host's pids.
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the builder
        code = 1
        try:
            ours.close()
            linux.unshare(linux.CLONE_NEWNS)
            linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
            # The staging tmpfs goes: each check mounts its fresh /tmp over the host's, and binds
            # interpreter paths that live under /tmp (tmp_keep) back from there.
            mounts.apply(plan.fs_plan, unmount_stage=True)
            linux.mount_setattr_recursive("/", linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID)
            fd = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
            socket.send_fds(theirs, [b"ok"], [fd])
            code = 0
        except BaseException as exc:  # noqa: BLE001 - reported to the worker, which raises
            try:
                theirs.sendall(f"error: {type(exc).__name__}: {exc}".encode()[:4000])
            except BaseException:
                pass
        finally:
            os._exit(code)
    theirs.close()
    try:
        msg, fds, _flags, _addr = socket.recv_fds(ours, 4096, 1)
        if msg != b"ok" or not fds:
            for fd in fds:
                os.close(fd)
            raise OSError(f"building the checks' mount namespace failed: {msg.decode('utf-8', 'replace') or 'builder died'}")
        os.set_inheritable(fds[0], False)
        return fds[0]
    finally:
        ours.close()
        os.waitpid(pid, 0)


def enter_filesystem(plan: IsolationPlan, disk_mb: int, template: int) -> tuple[str, str]:
    """Own mount/ipc/uts namespaces, copied from `template` (an fd from make_template: the
    grader's folders masked, the whole tree read-only and nosuid), then fresh size-capped
    tmpfs on /tmp and /dev/shm and a fresh /proc. Closes `template`. Returns (workdir,
    testdir), both created and empty."""
    linux.setns(template, linux.CLONE_NEWNS)  # also moves root and cwd to the template's root
    os.close(template)
    linux.unshare(linux.CLONE_NEWNS | linux.CLONE_NEWIPC | linux.CLONE_NEWUTS)
    # The host's /tmp, held before anything is mounted over it: where the interpreter lives
    # under /tmp, its paths are bound back from here into the check's fresh /tmp.
    old_tmp = os.open("/tmp", os.O_PATH | os.O_DIRECTORY) if plan.tmp_keep else None
    flags = linux.MS_NOSUID | linux.MS_NODEV
    linux.mount("tmpfs", "/tmp", "tmpfs", flags, tmp_options(disk_mb))
    if old_tmp is not None:
        for path in plan.tmp_keep:
            if not path.startswith("/tmp/"):
                continue
            os.makedirs(path, exist_ok=True)  # root-owned 0755 in the fresh tmpfs
            linux.mount(f"/proc/self/fd/{old_tmp}/{path[len('/tmp/'):]}", path, None, linux.MS_BIND | linux.MS_REC)
            linux.mount_setattr_recursive(path, linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID)
        os.close(old_tmp)
    linux.mount("tmpfs", "/dev/shm", "tmpfs", flags, SHM_OPTIONS)
    linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
    os.makedirs(WORKDIR)
    os.makedirs(TESTDIR)
    return WORKDIR, TESTDIR


def rlimits(plan: IsolationPlan, limits: dict[str, Any]) -> list[tuple[int, int]]:
    """(resource, limit) for a check, each set soft = hard: CPU backstop, core, file size,
    processes, and address space when no memory cgroup caps the check."""
    # A backstop per process (whole seconds): with a cgroup, the zygote stops the check at its
    # exact limit from cgroup accounting. soft = hard: a pid-namespace init ignores SIGXCPU.
    cpu = int(math.ceil(float(limits["cpu_s"]))) + (1 if plan.has_cgroup else 0)
    nproc = int(limits["processes"])
    if plan.mode == "userns":
        nproc += plan.nproc_base  # RLIMIT_NPROC counts every process of the host uid
    out = [(resource.RLIMIT_CPU, cpu), (resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, int(limits["file_bytes"])),
           (resource.RLIMIT_NPROC, nproc)]
    if not plan.has_cgroup:
        out.append((resource.RLIMIT_AS, int(limits["memory_mb"]) << 20))
    return out


def tmp_options(disk_mb: int) -> str:
    return f"size={int(disk_mb)}m,mode=1777"


SHM_OPTIONS = "size=16m,mode=1777"


def drop_privileges(plan: IsolationPlan, limits: dict[str, Any], workdir: str | None = None) -> None:
    """rlimits (CPU backstop, core, file size, processes; address space when no memory
    cgroup), then the uid drop and no_new_privs. `limits` is asdict(Limits)."""
    if plan.isolated and plan.mode != "userns" and workdir:
        os.chown(workdir, plan.uid, plan.uid)
    for res, value in rlimits(plan, limits):
        resource.setrlimit(res, (value, value))
    if plan.mode == "userns":
        # A nested user namespace that owns nothing: the check keeps no capability over the
        # mount, network or pid namespaces set up above (so no remount rw, no new mounts).
        linux.unshare(linux.CLONE_NEWUSER)
        linux.map_ids(CHECK_UID, 0, CHECK_UID, 0, deny_setgroups=False)
        linux.drop_capabilities()
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
    elif plan.isolated:
        # Root ignores RLIMIT_NPROC and could remount / read-write: the drop is required.
        os.setgroups([])
        os.setresgid(plan.uid, plan.uid, plan.uid)
        os.setresuid(plan.uid, plan.uid, plan.uid)
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
