"""The seccomp filter every check runs under: compiled once per worker, loaded per check.

Compiling with libseccomp costs ~2.6 ms, loading a ready BPF program ~0.2 ms, so the zygote
builds the program at start-up (`compile_filter`) and each forked child only calls
`Filter.load()`. The policy is a deny-list over a default of *allow*: ordinary programs
(compilers, node, java, numpy, multiprocessing) keep working, while what no test needs and
what would let a check escape or reach out is refused with an errno (never a kill, so a
well-behaved program that merely probes a feature falls back gracefully).

libseccomp (the C library, `libseccomp.so.2`, Debian package `libseccomp2`) is used through
ctypes only to *compile*; it resolves syscall names for the running architecture."""

from __future__ import annotations

import ctypes
import errno
import os
from dataclasses import dataclass

from rlvr_grade.sandbox import linux

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO_BASE = 0x00050000
SCMP_CMP_NE = 1
SCMP_CMP_EQ = 4
SCMP_CMP_MASKED_EQ = 7
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

AF_UNIX = 1
# Namespace-creating clone flags: a check must not build itself a fresh user/mount/net world.
NS_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)

# Refused outright with EPERM: escape routes (ptrace, other processes' memory, mounts,
# namespaces), kernel attack surface (bpf, keyrings, perf, userfaultfd), and host-wide state.
DENY_EPERM = (
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp",
    "mount", "umount", "umount2", "pivot_root", "chroot", "mount_setattr", "move_mount",
    "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    "unshare", "setns",
    "bpf", "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd", "fanotify_init",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "lookup_dcookie",
    "open_by_handle_at", "name_to_handle_at",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "syslog", "vhangup",
    "iopl", "ioperm", "uselib", "sethostname", "setdomainname", "nfsservctl",
    "mbind", "set_mempolicy", "move_pages", "migrate_pages",
)
# ENOSYS makes callers fall back to an older interface: glibc retries clone3 as clone (whose
# flags *can* be inspected), libuv and others give up on io_uring and use epoll/threads.
DENY_ENOSYS = ("clone3", "io_uring_setup", "io_uring_enter", "io_uring_register")
# ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT, READ_IMPLIES_EXEC, ADDR_LIMIT_3GB
PERSONALITY_WEAKENING = (0x0040000, 0x0100000, 0x0200000, 0x0400000, 0x8000000)


class SeccompUnavailable(OSError):
    """libseccomp is missing or refused to build the filter (doctor shows why)."""


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


@dataclass
class Filter:
    """A compiled BPF program, ready to be loaded by a forked child with one prctl."""

    program: bytes
    denied: tuple[str, ...]

    def __post_init__(self) -> None:
        # Built in the parent so the child does nothing but the prctl (its copy-on-write pages
        # are already there after fork).
        self._buf = ctypes.create_string_buffer(self.program, len(self.program))
        self._fprog = _SockFprog(len(self.program) // 8, ctypes.cast(self._buf, ctypes.c_void_p))
        libc = linux.load_library("libc.so.6", "c")
        self._prctl = libc.prctl
        self._prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]

    def load(self) -> None:
        """Install the filter on the calling thread (needs no_new_privs or CAP_SYS_ADMIN)."""
        if self._prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(self._fprog), 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"seccomp load: {os.strerror(err)}")


def _lib() -> ctypes.CDLL:
    try:
        lib = linux.load_library("libseccomp.so.2", "seccomp")
    except OSError as exc:
        raise SeccompUnavailable(
            f"libseccomp.so.2 not found ({exc}); install it with `apt-get install libseccomp2`"
        ) from exc
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


def compile_filter() -> Filter:
    """Build the check policy for this machine's architecture. Raises SeccompUnavailable."""
    lib = _lib()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise SeccompUnavailable("seccomp_init failed")
    denied: list[str] = []
    try:

        def rule(action: int, name: str, *cmps: tuple[int, int, int, int]) -> None:
            nr = lib.seccomp_syscall_resolve_name(name.encode())
            if nr < 0:
                return  # not a syscall on this architecture
            arr = (_ArgCmp * max(1, len(cmps)))(*[_ArgCmp(*c) for c in cmps])
            rc = lib.seccomp_rule_add_array(ctx, action, nr, len(cmps), arr)
            if rc < 0:
                raise SeccompUnavailable(f"seccomp rule for {name}: {os.strerror(-rc)}")
            if name not in denied:
                denied.append(name)

        eperm = SCMP_ACT_ERRNO_BASE | errno.EPERM
        for name in DENY_EPERM:
            rule(eperm, name)
        for name in DENY_ENOSYS:
            rule(SCMP_ACT_ERRNO_BASE | errno.ENOSYS, name)
        # Only AF_UNIX sockets: no inet/inet6 (network), netlink (routing, audit), packet (raw
        # frames), vsock, bluetooth... EAFNOSUPPORT reads as "this family does not exist here".
        nosupport = SCMP_ACT_ERRNO_BASE | errno.EAFNOSUPPORT
        rule(nosupport, "socket", (0, SCMP_CMP_NE, AF_UNIX, 0))
        rule(nosupport, "socketpair", (0, SCMP_CMP_NE, AF_UNIX, 0))
        # fork/vfork/threads use clone without namespace flags; any namespace flag is refused.
        for flag in NS_FLAGS:
            rule(eperm, "clone", (0, SCMP_CMP_MASKED_EQ, flag, flag))
        # personality() flags that weaken the process (no ASLR, executable data, page 0
        # mappable) are refused; bit 31 is only set by the 0xffffffff query, which stays allowed.
        for bit in PERSONALITY_WEAKENING:
            rule(eperm, "personality", (0, SCMP_CMP_MASKED_EQ, bit | 0x80000000, bit))
        # TIOCSTI pushes characters into a terminal's input queue (a classic sandbox escape).
        rule(eperm, "ioctl", (1, SCMP_CMP_EQ, 0x5412, 0))
        fd = os.memfd_create("rlvr-seccomp", 0)
        try:
            rc = lib.seccomp_export_bpf(ctx, fd)
            if rc < 0:
                raise SeccompUnavailable(f"seccomp_export_bpf: {os.strerror(-rc)}")
            size = os.lseek(fd, 0, os.SEEK_END)
            program = os.pread(fd, size, 0)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)
    if not program or len(program) % 8:
        raise SeccompUnavailable("libseccomp produced an empty or malformed BPF program")
    return Filter(program=program, denied=tuple(denied))
