"""Thin ctypes wrappers for the Linux calls Python 3.11's os module lacks."""

from __future__ import annotations

import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_SLAVE = 1 << 19

PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NAME = 15

AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4
MOUNT_ATTR__ATIME = 0x70  # the access-time mode bits, cleared before one is set
MOUNT_ATTR_NOATIME = 0x10
SYS_mount_setattr = 442  # x86_64 and aarch64 share the new-syscall numbers



def load_library(soname: str, short: str) -> ctypes.CDLL:
    """`soname` directly; ctypes.util.find_library only when that fails. find_library pulls in
    subprocess and shutil, ~1 MB more in every worker for each check's fork to copy."""
    try:
        return ctypes.CDLL(soname, use_errno=True)
    except OSError:
        from ctypes.util import find_library

        found = find_library(short)
        if not found:
            raise
        return ctypes.CDLL(found, use_errno=True)


_libc = load_library("libc.so.6", "c")
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
_libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
_libc.syscall.restype = ctypes.c_long


def _check(ret: int, what: str) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return ret


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def setns(fd: int, nstype: int) -> None:
    _check(_libc.setns(ctypes.c_int(fd), ctypes.c_int(nstype)), "setns")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        _libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def umount(target: str, flags: int = 0) -> None:
    _check(_libc.umount2(target.encode(), flags), f"umount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def mount_setattr_recursive(path: str, attr_set: int, propagation: int = 0, clear: int = 0) -> None:
    """One syscall to make a whole mount tree read-only (Linux 5.12+); `clear`: attributes
    to remove."""
    attr = _MountAttr(attr_set, clear, propagation, 0)
    AT_FDCWD = -100
    ret = _libc.syscall(
        ctypes.c_long(SYS_mount_setattr),
        ctypes.c_int(AT_FDCWD),
        ctypes.c_char_p(path.encode()),
        ctypes.c_uint(AT_RECURSIVE),
        ctypes.byref(attr),
        ctypes.c_size_t(ctypes.sizeof(attr)),
    )
    _check(ret, f"mount_setattr {path}")


SYS_pivot_root = 155 if os.uname().machine == "x86_64" else 41  # aarch64: 41


def pivot_root(new_root: str, put_old: str) -> None:
    _check(_libc.syscall(ctypes.c_long(SYS_pivot_root), ctypes.c_char_p(new_root.encode()),
                         ctypes.c_char_p(put_old.encode())), "pivot_root")


def prctl(option: int, arg2: int = 0) -> None:
    _check(_libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)), "prctl")


def set_name(name: str) -> None:
    """This process's name as ps -o comm, top and /proc/PID/comm show it (15 bytes at most):
    a seed and the workers it forks share one command line, so their names tell them apart."""
    _check(_libc.prctl(ctypes.c_int(PR_SET_NAME), ctypes.c_char_p(name.encode()[:15]), ctypes.c_ulong(0),
                       ctypes.c_ulong(0), ctypes.c_ulong(0)), "prctl")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """Clear every capability of the calling thread (effective, permitted, inheritable)."""
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def map_ids(inside_uid: int, outside_uid: int, inside_gid: int, outside_gid: int, deny_setgroups: bool = True) -> None:
    """Write the caller's uid/gid maps right after unshare(CLONE_NEWUSER): one id each, which
    is all an unprivileged process may map."""
    if deny_setgroups:
        try:
            with open("/proc/self/setgroups", "w") as fh:
                fh.write("deny")
        except OSError:
            pass  # inherited as "deny" from the parent namespace already
    with open("/proc/self/uid_map", "w") as fh:
        fh.write(f"{inside_uid} {outside_uid} 1")
    with open("/proc/self/gid_map", "w") as fh:
        fh.write(f"{inside_gid} {outside_gid} 1")


def enter_user_namespace(inside_uid: int = 0, inside_gid: int = 0) -> None:
    """unshare(CLONE_NEWUSER) and map the caller's own uid/gid to the given ids inside."""
    uid, gid = os.geteuid(), os.getegid()
    unshare(CLONE_NEWUSER)
    map_ids(inside_uid, uid, inside_gid, gid)


def user_namespaces_allowed() -> tuple[bool, str]:
    """Whether this process may create a user namespace, and why not: probed in a child."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        try:
            unshare(CLONE_NEWUSER)
        except OSError as exc:
            code = exc.errno or 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return True, "user namespaces available"
    reasons = []
    for path in ("/proc/sys/user/max_user_namespaces", "/proc/sys/kernel/unprivileged_userns_clone",
                 "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"):
        try:
            with open(path) as fh:
                reasons.append(f"{os.path.basename(path)}={fh.read().strip()}")
        except OSError:
            pass
    return False, f"unshare(CLONE_NEWUSER) failed: {os.strerror(code)}" + (f" ({', '.join(reasons)})" if reasons else "")
