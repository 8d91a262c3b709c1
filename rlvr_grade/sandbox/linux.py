"""The Linux calls Python 3.11's os module lacks: sandbox/_linux.c where it is built (no process
that forks checks may hold ctypes: red team A2), else the same calls through ctypes."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

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
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4
MOUNT_ATTR__ATIME = 0x70  # the access-time mode bits, cleared before one is set
MOUNT_ATTR_NOATIME = 0x10
SYS_mount_setattr = 442  # x86_64 and aarch64 share the new-syscall numbers



LINUX_API = 1  # what sandbox/_linux.c's functions take (its LINUX_API)


def load_library(soname: str, short: str) -> Any:
    """`soname` through ctypes; ctypes.util.find_library only when that fails. find_library
    pulls in subprocess and shutil. Never called in a process that forks checks where
    sandbox/_linux.c is built (ctypes there is red team A2's raw memory)."""
    import ctypes

    try:
        return ctypes.CDLL(soname, use_errno=True)
    except OSError:
        from ctypes.util import find_library

        found = find_library(short)
        if not found:
            raise
        return ctypes.CDLL(found, use_errno=True)


def _b(text: str | None) -> bytes | None:
    return text.encode() if text is not None else None


class _Ctypes:
    """The same calls as sandbox/_linux.c through ctypes: only where the extension is not built
    (or built from another version). It loads _ctypes into every process that forks checks, so
    NATIVE_FALLBACK says so wherever the isolation is reported."""

    def __init__(self) -> None:
        import ctypes

        self.ct = ctypes
        self.libc = libc = load_library("libc.so.6", "c")
        libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
        libc.syscall.restype = ctypes.c_long

    def _check(self, ret: int, what: str) -> None:
        if ret < 0:
            err = self.ct.get_errno()
            raise OSError(err, f"{what}: {os.strerror(err)}")

    def unshare(self, flags: int) -> None:
        self._check(self.libc.unshare(self.ct.c_int(flags)), "unshare")

    def setns(self, fd: int, nstype: int) -> None:
        self._check(self.libc.setns(self.ct.c_int(fd), self.ct.c_int(nstype)), "setns")

    def mount(self, source: str | None, target: str, fstype: str | None, flags: int, data: str | None) -> None:
        self._check(self.libc.mount(_b(source), _b(target), _b(fstype), self.ct.c_ulong(flags), _b(data)), "mount")

    def umount2(self, target: str, flags: int) -> None:
        self._check(self.libc.umount2(_b(target), flags), "umount")

    def mount_setattr_recursive(self, path: str, attr_set: int, clear: int, propagation: int) -> None:
        ct = self.ct
        attr = (ct.c_uint64 * 4)(attr_set, clear, propagation, 0)
        self._check(self.libc.syscall(ct.c_long(SYS_mount_setattr), ct.c_int(-100), ct.c_char_p(_b(path)),
                                      ct.c_uint(AT_RECURSIVE), ct.byref(attr), ct.c_size_t(ct.sizeof(attr))),
                    "mount_setattr")

    def pivot_root(self, new_root: str, put_old: str) -> None:
        ct = self.ct
        self._check(self.libc.syscall(ct.c_long(SYS_pivot_root), ct.c_char_p(_b(new_root)), ct.c_char_p(_b(put_old))),
                    "pivot_root")

    def prctl(self, option: int, arg2: int) -> None:
        ct = self.ct
        self._check(self.libc.prctl(ct.c_int(option), ct.c_ulong(arg2), ct.c_ulong(0), ct.c_ulong(0), ct.c_ulong(0)),
                    "prctl")

    def set_name(self, name: bytes) -> None:
        ct = self.ct
        self._check(self.libc.prctl(ct.c_int(PR_SET_NAME), ct.c_char_p(name[:15]), ct.c_ulong(0), ct.c_ulong(0),
                                    ct.c_ulong(0)), "prctl")

    def drop_capabilities(self) -> None:
        ct = self.ct
        header = (ct.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
        data = (ct.c_uint32 * 6)()  # two {effective, permitted, inheritable}, all zero
        self._check(self.libc.capset(ct.byref(header), ct.byref(data)), "capset")

    def seccomp_load(self, program: bytes) -> None:
        ct = self.ct
        buf = ct.create_string_buffer(program, len(program))
        fprog = (ct.c_ushort * 8)()  # struct sock_fprog: a short count, then the pointer at offset 8
        fprog[0] = len(program) // 8
        ct.c_void_p.from_buffer(fprog, 8).value = ct.addressof(buf)
        self._check(self.libc.prctl(ct.c_int(PR_SET_SECCOMP), ct.c_ulong(SECCOMP_MODE_FILTER), ct.byref(fprog),
                                    ct.c_ulong(0), ct.c_ulong(0)), "seccomp load")


def _native() -> tuple[Any, str]:
    """sandbox/_linux.c, or the ctypes fallback and why it is used."""
    try:
        from rlvr_grade.sandbox import _linux
    except ImportError:
        why = "sandbox/_linux.c is not built"
    else:
        if getattr(_linux, "API", None) == LINUX_API:
            return _linux, ""
        why = f"sandbox/_linux.c's build ({_linux.__file__}) speaks API {getattr(_linux, 'API', None)}, this code {LINUX_API}"
    return _Ctypes(), (f"{why}: the sandbox's system calls go through ctypes, which every check then inherits "
                       "(raw memory reachable from candidate code); rebuild with `make install`")


_sys, NATIVE_FALLBACK = _native()


def _named(what: str, call: Any, *args: Any) -> None:
    try:
        call(*args)
    except OSError as exc:
        raise OSError(exc.errno, f"{what}: {os.strerror(exc.errno or 0)}") from None


def unshare(flags: int) -> None:
    _sys.unshare(flags)


def setns(fd: int, nstype: int) -> None:
    _sys.setns(fd, nstype)


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _named(f"mount {target}", _sys.mount, source or None, target, fstype or None, flags, data or None)


def umount(target: str, flags: int = 0) -> None:
    _named(f"umount {target}", _sys.umount2, target, flags)


def mount_setattr_recursive(path: str, attr_set: int, propagation: int = 0, clear: int = 0) -> None:
    """One syscall to make a whole mount tree read-only (Linux 5.12+); `clear`: attributes
    to remove."""
    _named(f"mount_setattr {path}", _sys.mount_setattr_recursive, path, attr_set, clear, propagation)


SYS_pivot_root = 155 if os.uname().machine == "x86_64" else 41  # aarch64: 41


def pivot_root(new_root: str, put_old: str) -> None:
    _sys.pivot_root(new_root, put_old)


def prctl(option: int, arg2: int = 0) -> None:
    _sys.prctl(option, arg2)


def set_name(name: str) -> None:
    """This process's name as ps -o comm, top and /proc/PID/comm show it (15 bytes at most):
    a seed and the workers it forks share one command line, so their names tell them apart."""
    _sys.set_name(name.encode()[:15])


def drop_capabilities() -> None:
    """Clear every capability of the calling thread (effective, permitted, inheritable)."""
    _sys.drop_capabilities()


def seccomp_load(program: bytes) -> None:
    """Install a BPF program (struct sock_filter, 8 bytes each) on the calling thread (needs
    no_new_privs or CAP_SYS_ADMIN)."""
    _sys.seccomp_load(program)


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


def probe(step: Callable[[], object]) -> int:
    """Run `step` in a throwaway forked child and return how it ended: 0 when it returned (or
    the small number it returned: a step that answers with one catches its own exceptions), the
    errno of the OSError it raised, 1 for any other exception (negative: the signal that killed
    it). For the questions whose asking cannot be undone here: a namespace once entered, ids
    once dropped, mounts once made, modules once imported."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the probe child
        code = 1
        try:
            answer = step()
            code = answer if type(answer) is int and 0 <= answer < 256 else 0
        except OSError as exc:
            code = exc.errno or 1
        except BaseException:  # noqa: BLE001 - any other failure is a "no", never this process's
            pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def user_namespaces_allowed() -> tuple[bool, str]:
    """Whether this process may create a user namespace, and why not: probed in a child."""
    code = probe(lambda: unshare(CLONE_NEWUSER))
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
