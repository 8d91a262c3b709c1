"""Isolate the calling process *now*: the per-check steps of the local sandbox as a reusable
function, for the zygote's forked child and for any worker that forks checks itself (a warm
worker inside a gVisor or Beam sandbox can apply the same namespaces, mounts, rlimits, uid
drop and seccomp).

Call order, in a freshly forked single-threaded child:

    enter_filesystem(template, disk_mb, t, check_namespaces(slot))  # a copy of make_template()'s root
    ... write the check's files into WORKDIR / TESTDIR ...
    drop_privileges(plan, limits)        # rlimits, uid (or nested user namespace), no_new_privs
    filter.load()                        # seccomp last: the steps above need mount/unshare

What the caller must have done first: for `mode="root"`, be root; for `mode="userns"`, be
root *inside* a user namespace that owns the current pid namespace (see
zygote.become_userns_init). A fresh /proc shows only the check's processes when the caller
was forked into a new pid namespace (unshare(CLONE_NEWPID) before fork); the network is cut
by whatever network namespace the caller sits in (the zygote unshares an empty one per slot),
and so are the ipc and uts namespaces where seccomp is on (slot_namespaces)."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from rlvr_grade.sandbox import linux, mounts
from rlvr_grade.sandbox.root import Layout
from rlvr_harness.limits import check_rlimits
from rlvr_harness.process import set_check_rlimits
from rlvr_harness.wire import CheckLimits

WORKDIR = "/tmp/w"
HOSTNAME = "check"  # uname's nodename in every check: nothing of the host's
TESTDIR = "/tmp/t"
CHECK_DIRS = ((WORKDIR, 0o755), (TESTDIR, 0o1777))
CHECK_UID = 1000  # what a check sees as its uid inside a user namespace
# What each check unshares after entering its template: its own mounts, and a cgroup namespace
# rooted at the slot's cgroups; ipc and uts too, unless its slot holds them (slot_namespaces).
CHECK_NAMESPACES = linux.CLONE_NEWNS | linux.CLONE_NEWIPC | linux.CLONE_NEWUTS | linux.CLONE_NEWCGROUP
SLOT_NAMESPACES = linux.CLONE_NEWIPC | linux.CLONE_NEWUTS


@dataclass(frozen=True)
class IsolationPlan:
    """How one worker isolates each check. `mode`: "root" (drop to `uid`), "userns" (nested
    user namespace mapped to CHECK_UID), "none" (nothing)."""

    mode: str
    uid: int = 65534
    nproc_base: int = 0  # userns: RLIMIT_NPROC counts the grader's own processes too
    has_cgroup: bool = False  # memory is capped by a cgroup (else RLIMIT_AS), CPU watched outside
    own_keyrings: bool = False  # root: each check gets a user namespace of its own (own_user_namespace)

    @property
    def isolated(self) -> bool:
        return self.mode != "none"

    @property
    def check_uid(self) -> int:
        """The uid a check sees itself run as (its /etc/passwd names it)."""
        return CHECK_UID if self.mode == "userns" else self.uid


@dataclass(frozen=True)
class Template:
    """A worker's mount namespace for the checks of one root (make_template): `fd` holds it,
    `tmp_keep` are its directories under /tmp that each check binds back into its fresh /tmp,
    `proc_options` how each check mounts its /proc."""

    fd: int
    layout: Layout
    farm: str
    overlay: bool
    proc_options: str
    devices: str
    tmp_keep: tuple[str, ...] = ()
    # Shown through bind mounts (overlayfs refused them): their inodes are the host's, shared by
    # every slot, so a lock, lease or futex on one of their files crosses checks.
    bound: tuple[str, ...] = ()


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


def make_template(plan: IsolationPlan, layout: Layout, farm: str) -> Template:
    """Build, once per worker and root, the mount namespace every check of that root starts
    from (sandbox/mounts.py: the root's overlays, /dev, generated /etc/passwd, the host tree
    gone, all read-only and nosuid). Returns it held by a descriptor (the short-lived process
    that built it is gone). A check then copies it (setns + unshare) and only mounts its own
    /tmp, /dev/shm and /proc."""
    import json
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
            ns = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)  # before /proc goes
            linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
            built = mounts.build(layout, farm, plan.check_uid, userns=plan.mode == "userns")
            info = json.dumps({"overlay": built.overlay, "proc": built.proc_options, "devices": built.devices,
                               "bound": list(built.bound)})
            socket.send_fds(theirs, [b"ok " + info.encode()], [ns])
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
        if not msg.startswith(b"ok ") or not fds:
            for fd in fds:
                os.close(fd)
            raise OSError(f"building the checks' root failed: {msg.decode('utf-8', 'replace') or 'builder died'}")
        os.set_inheritable(fds[0], False)
        info = json.loads(msg[3:])
        return Template(fd=fds[0], layout=layout, farm=farm, overlay=info["overlay"], proc_options=info["proc"],
                        devices=info["devices"], tmp_keep=tuple(mounts.tmp_resident(layout)), bound=tuple(info["bound"]))
    finally:
        ours.close()
        os.waitpid(pid, 0)


def slot_namespaces(seccomp: bool) -> int:
    """The namespaces a worker unshares once for all its checks, besides the network one:
    ipc and uts where its checks run under seccomp, which refuses every call that makes or
    reaches a SysV IPC object or a POSIX message queue, and sethostname/setdomainname (nor does a
    check hold a capability over the slot's namespaces), so a check finds them as the worker
    made them, whatever the slot's checks before it did. Without seccomp a check could leave a
    SysV object there for the slot's next check: each check unshares its own (~0.1 ms of system
    time a check, and a teardown in a kernel worker after it)."""
    return SLOT_NAMESPACES if seccomp else 0


def check_namespaces(slot: int) -> int:
    """The clone flags a check unshares (enter_filesystem, _child.c) when its slot holds `slot`
    (slot_namespaces)."""
    return CHECK_NAMESPACES & ~slot


def enter_slot_namespaces(slot: int) -> None:
    """In the worker: the namespaces its checks share (slot_namespaces), uts named HOSTNAME."""
    if slot:
        linux.unshare(slot)
        if slot & linux.CLONE_NEWUTS:
            socket.sethostname(HOSTNAME)


def enter_filesystem(template: Template, disk_mb: int, fd: int, namespaces: int = CHECK_NAMESPACES) -> tuple[str, str]:
    """Own mount and cgroup namespaces (and ipc and uts, as `namespaces` says: check_namespaces),
    the mounts copied from `fd` (a duplicate of template.fd: the root, read-only and nosuid),
    then a fresh size-capped tmpfs for /tmp and /dev/shm (mount_check_tmp) and a fresh /proc.
    Closes `fd`. Returns (workdir, testdir), both created and empty."""
    if not namespaces & linux.CLONE_NEWNS:  # the mounts below would land in the template itself
        raise ValueError("a check's namespaces must include its own mount namespace")
    linux.setns(fd, linux.CLONE_NEWNS)  # also moves root and cwd to the template's root
    os.close(fd)
    # The cgroup namespace roots at the cgroups just joined (join_cgroup): /proc/self/cgroup
    # shows "/", not the grader's paths (its pid, the slot); the host's name stays outside.
    linux.unshare(namespaces)
    if namespaces & linux.CLONE_NEWUTS:
        socket.sethostname(HOSTNAME)
    # /proc first: the bindings below name the template's /tmp through /proc/self/fd.
    linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC, template.proc_options or None)
    # The template's /tmp, held before anything is mounted over it: where the root has
    # directories under /tmp, they are bound back from here into the check's fresh /tmp.
    old_tmp = os.open("/tmp", os.O_PATH | os.O_DIRECTORY) if template.tmp_keep else None
    mount_check_tmp(disk_mb)
    if old_tmp is not None:
        for path in template.tmp_keep:
            os.makedirs(path, exist_ok=True)  # root-owned 0755 in the fresh tmpfs
            linux.mount(f"/proc/self/fd/{old_tmp}/{path[len('/tmp/'):]}", path, None, linux.MS_BIND | linux.MS_REC)
            linux.mount_setattr_recursive(path, linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID)
        os.close(old_tmp)
    make_check_dirs()
    return WORKDIR, TESTDIR


def make_check_dirs() -> None:
    """WORKDIR (chowned to the check's uid later) and TESTDIR: mode 01777, so tests may write
    files beside themselves (ClassEval's do) while the sticky bit keeps the root-owned,
    read-only test files from being replaced or removed."""
    for path, mode in CHECK_DIRS:
        os.mkdir(path)
        os.chmod(path, mode)


def rlimits(plan: IsolationPlan, limits: CheckLimits) -> list[tuple[int, int]]:
    """(resource, limit) for a check under `plan`: rlvr_harness/limits.py `check_rlimits`, the one
    policy of every set-up path (the Python steps, _child.c through zygote._c_spec, the light
    runner inside gVisor and Beam)."""
    # userns: RLIMIT_NPROC counts every process of the host uid, the grader's own too.
    return check_rlimits(limits, has_cgroup=plan.has_cgroup, nproc_extra=plan.nproc_base if plan.mode == "userns" else 0)


def tmp_options(disk_mb: int) -> str:
    return f"size={int(disk_mb)}m,mode=1777"


TMP_PARTS = (("tmp", "/tmp"), ("shm", "/dev/shm"))


def mount_check_tmp(disk_mb: int) -> None:
    """One tmpfs of `disk_mb` for all a check writes: /tmp and /dev/shm are its folders, one cap
    (docs/sandbox.md; _child.c does the same)."""
    linux.mount("tmpfs", "/tmp", "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, tmp_options(disk_mb))
    for name, _ in TMP_PARTS:
        os.mkdir(f"/tmp/{name}")
        os.chmod(f"/tmp/{name}", 0o1777)
    for name, at in reversed(TMP_PARTS):  # /tmp last: it covers the tmpfs's top
        linux.mount(f"/tmp/{name}", at, None, linux.MS_BIND)


def drop_privileges(plan: IsolationPlan, limits: CheckLimits, workdir: str | None = None) -> None:
    """rlimits (CPU backstop, core, file size, processes; address space when no memory
    cgroup), then the uid drop and no_new_privs."""
    if plan.isolated and plan.mode != "userns" and workdir:
        os.chown(workdir, plan.uid, plan.uid)
    set_check_rlimits(rlimits(plan, limits))
    if plan.mode == "userns":
        # A nested user namespace that owns nothing: the check keeps no capability over the
        # mount, network or pid namespaces set up above (so no remount rw, no new mounts).
        linux.unshare(linux.CLONE_NEWUSER)
        linux.map_ids(CHECK_UID, 0, CHECK_UID, 0, deny_setgroups=False)
        linux.drop_capabilities()
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        linux.prctl(linux.PR_SET_DUMPABLE, 0)
    elif plan.isolated:
        # Root ignores RLIMIT_NPROC and could remount / read-write: the drop is required.
        os.setgroups([])
        os.setresgid(plan.uid, plan.uid, plan.uid)
        os.setresuid(plan.uid, plan.uid, plan.uid)
        if plan.own_keyrings:
            own_user_namespace(plan.uid)
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        # Not dumpable (whatever fs.suid_dumpable says): the files of /proc/<pid> of the check
        # are then root's, so not even the check itself opens its own /proc/self/mem, environ
        # or pagemap; seccomp refuses making it dumpable again (an exec'd program starts
        # dumpable, with nothing of the harness in its memory).
        linux.prctl(linux.PR_SET_DUMPABLE, 0)


def own_user_namespace(uid: int) -> None:
    """After the uid drop: a user namespace of the check's own, `uid` mapped to itself, no
    capability kept in it. The kernel keeps a uid's user, user-session and persistent keyrings
    in the user namespace's registers, so a key left there dies with the check instead of
    waiting for the slot's next one (docs/sandbox.md). The drop made this process not dumpable,
    which makes its /proc/self/*_map files root's: dumpable again until drop_privileges ends."""
    linux.prctl(linux.PR_SET_DUMPABLE, 1)
    linux.unshare(linux.CLONE_NEWUSER)
    linux.map_ids(uid, uid, uid, uid)
    linux.drop_capabilities()


def user_namespace_for_checks(uid: int) -> str:
    """"" when a process dropped to `uid` can make its own user namespace (own_user_namespace),
    else why not (user namespaces off for unprivileged users): probed in a throwaway child."""

    def as_the_check() -> None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        own_user_namespace(uid)

    code = linux.probe(as_the_check)
    return "" if code == 0 else f"no user namespace for an unprivileged uid: {os.strerror(code) if code > 0 else code}"


def keys_held(uid: int) -> int:
    """How many keys `uid` holds, machine-wide (/proc/key-users: its qnkeys; 0 without keys)."""
    try:
        with open("/proc/key-users") as fh:
            for line in fh:
                head, _, rest = line.partition(":")
                if head.strip() == str(uid):
                    return int(rest.split()[2].split("/")[0])
    except (OSError, IndexError, ValueError):
        pass
    return 0


def keys_released(uid: int, baseline: int, wait_s: float = 1.0) -> bool:
    """Whether `uid` is back to the `baseline` keys it held when its worker started, waited for
    up to `wait_s`: the key quota is counted per uid machine-wide, and a dead check's keys are
    freed by the kernel's collector a moment after it, so the slot's next check would start with
    the quota its predecessor took (own_user_namespace's residual, without seccomp)."""
    import time

    deadline = time.monotonic() + wait_s
    while keys_held(uid) > baseline:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.001)
    return True
