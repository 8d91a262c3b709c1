"""The seccomp filter every check runs under: an allowlist, assembled here (no library) once
per seed, loaded per check."""

# What a check may call is what CPython, pytest, the stdlib's ordinary uses and the supported
# toolchains (gcc/g++ and the programs they build, javac/java, node) were seen to call after the
# filter is loaded: scripts/trace_syscalls.py runs real workloads (HumanEval, MBPP, pytest-style,
# stdio in every language, tests/sandbox/test_seccomp.py's ordinary programs, the honest hacks) under
# strace and lists every call and argument. The groups below are that list, with close relatives
# the stdlib reaches by name (os.readv beside read, the *at forms of file calls). Everything else
# fails with ENOSYS (a program probing a newer interface falls back: glibc retries clone3 as
# clone), and where a call is needed but not all its uses are, the arguments decide (rules(),
# whose comments say why for each).
#
# Not listed, so refused: ptrace, process_vm_readv/writev, kcmp, pidfd_getfd (reading or writing
# another process's memory), io_setup/io_submit and io_uring (host AIO pools), inotify,
# fanotify (notifications), add_key/keyctl/request_key (kernel keyrings), mincore (page-cache
# residency, a channel between checks), perf_event_open, bpf, userfaultfd, mount and namespace
# calls, sync (flushes every filesystem of the host), SysV IPC and POSIX message queues, mlock,
# setuid and friends, personality, and every call added to the kernel after this list.
#
# The result channel is guarded by the same program: `compile_filter(channel_fd=N)` puts in front
# of the allowlist a few instructions that refuse (EPERM) dup2/dup3 onto descriptor N, close(N)
# and close_range over N, in every process of the check. The harness writes its records there;
# a check that could put a descriptor of its own at N (or free N and let the next pipe land
# there) would read them, nonce included, and forge the rest on a copy it kept. Only the low 32
# bits of each argument are compared: the kernel reads these descriptors as unsigned int, so a
# value with garbage in its upper half is the same descriptor.
#
# The program is written here, not by libseccomp: `rules()` is the policy as data (the action
# values and comparison ops are libseccomp's numbering), `assemble` turns it into classic BPF for
# x86-64 or aarch64 with the kernel's call numbers of each (X86_64, AARCH64): the audit-arch check
# first (a call of another ABI, i386 through int 0x80 or x32, kills the thread), then a binary
# search on the call number. No library, no ctypes, so a check never runs without its filter
# because a library is missing, and the worker that forks checks holds no ctypes (red team A2).
# tests/sandbox/test_seccomp.py gives the same rules to libseccomp and runs both programs in a
# BPF interpreter on every call number and on the arguments around every boundary: the same
# action for every input. Assembled once per seed (~6 ms; a worker puts its channel's guard in
# front), loaded per check (sandbox/_linux.c's seccomp_load, or _child.c), ~0.3 ms.

from __future__ import annotations

import errno
import functools
import os
import struct
from dataclasses import dataclass
from typing import Any

from rlvr_grade.sandbox import linux

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO_BASE = 0x00050000
SCMP_CMP_NE = 1
SCMP_CMP_EQ = 4
SCMP_CMP_MASKED_EQ = 7

AF_UNIX = 1
# Namespace-creating clone flags: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (and
# NEWTIME, 0x80, which clone shares with CSIGNAL's bits, is refused through unshare/setns).
NS_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

ALLOWED = {
    "processes": (
        "fork", "vfork", "execve", "exit", "exit_group", "wait4", "waitid", "kill", "tgkill", "tkill",
        "getpid", "getppid", "gettid", "getpgid", "getpgrp", "setpgid", "getsid", "setsid",
        "pidfd_open", "pidfd_send_signal", "set_tid_address", "set_robust_list", "rseq", "arch_prctl",
        "uname", "sysinfo", "getrandom", "capget",
        "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups",
        "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "getpriority", "setpriority",
        "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam", "sched_getscheduler",
        "sched_get_priority_max", "sched_get_priority_min", "getcpu",
    ),
    "memory": (
        "brk", "munmap", "mprotect", "mremap", "msync",
        "pkey_alloc", "pkey_free", "pkey_mprotect", "futex", "futex_waitv",
    ),
    "signals and time": (
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend", "rt_sigtimedwait",
        "sigaltstack", "pause", "alarm", "getitimer", "setitimer", "restart_syscall",
        "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time",
    ),
    "descriptors and I/O": (
        "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev",
        "lseek", "close", "close_range", "dup", "dup2", "dup3", "pipe", "pipe2", "sendfile", "copy_file_range",
        "splice", "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
        "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd2", "flock", "fsync", "fdatasync",
        "ftruncate", "fallocate",
    ),
    "files": (
        "creat", "stat", "lstat", "fstat", "newfstatat", "statx", "statfs", "fstatfs",
        "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents64", "getcwd", "chdir", "fchdir",
        "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "truncate", "umask",
        "utime", "utimes", "utimensat", "futimesat",
        "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr",
        "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    ),
    "sockets between the check's own processes": (
        "bind", "listen", "accept", "accept4", "connect", "getsockname", "getpeername", "shutdown",
        "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "setsockopt", "getsockopt",
    ),
}
# Calls only some of whose arguments are allowed (see the module docstring).
PR_SET_PDEATHSIG, PR_GET_PDEATHSIG, PR_GET_DUMPABLE, PR_SET_DUMPABLE = 1, 2, 3, 4
PR_SET_NAME, PR_GET_NAME, PR_GET_SECCOMP, PR_CAPBSET_READ = 15, 16, 21, 23
PR_GET_TIMERSLACK, PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS, PR_GET_THP_DISABLE = 30, 38, 39, 42
PR_SET_VMA = 0x53564D41  # glibc and runtimes name anonymous mappings
PRCTL_ANY_ARG = (PR_SET_PDEATHSIG, PR_GET_PDEATHSIG, PR_GET_DUMPABLE, PR_SET_NAME, PR_GET_NAME, PR_GET_SECCOMP,
                 PR_CAPBSET_READ, PR_GET_TIMERSLACK, PR_GET_NO_NEW_PRIVS, PR_GET_THP_DISABLE, PR_SET_VMA,
                 PR_SET_NO_NEW_PRIVS)
TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX = 0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451
TCGETS2 = 0x802C542A
IOCTLS = (TCGETS, TCGETS2, TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX)
F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW = 0, 1, 2, 3, 4, 5, 6, 7
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_DUPFD_CLOEXEC, F_GETPIPE_SZ = 36, 37, 38, 1030, 1032
FCNTLS = (F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK,
          F_OFD_SETLKW, F_DUPFD_CLOEXEC, F_GETPIPE_SZ)  # and F_SETFL without O_DIRECT
O_DIRECT = getattr(os, "O_DIRECT", 0x4000)  # this architecture's (0x10000 on arm64)
S_IFMT, S_IFIFO, S_IFREG = 0o170000, 0o010000, 0o100000
RWF_NOWAIT = 0x8
MAP_HUGETLB = 0x40000
POSIX_FADV_DONTNEED = 4
FADVICES = (0, 1, 2, 3, 5)  # NORMAL, RANDOM, SEQUENTIAL, WILLNEED, NOREUSE
# madvise's advice: what strace saw CPython, pytest, numpy, gcc/g++, javac/java, node and rustc
# ask (DONTNEED, FREE, HUGEPAGE, DONTFORK), their pairs (DOFORK, NOHUGEPAGE), the access hints
# fadvise allows (NORMAL, RANDOM, SEQUENTIAL, WILLNEED) and allocators' core-dump hints (DONTDUMP,
# DODUMP): all about the caller's own pages.
MADVICES = (0, 1, 2, 3, 4, 8, 10, 11, 14, 15, 16, 17)
LOW_32 = 0xFFFFFFFF


def allowed_names() -> tuple[str, ...]:
    """Every call the filter lets through, with or without argument checks."""
    extra = ("clone", "mmap", "prctl", "ioctl", "fcntl", "socket", "socketpair", "mknod", "mknodat", "preadv2", "pwritev2",
             "fadvise64", "madvise", "open", "openat")
    return tuple(sorted({n for group in ALLOWED.values() for n in group} | set(extra)))


class SeccompUnavailable(OSError):
    """No filter can be built here: an architecture without a syscall table below."""


@dataclass(frozen=True)
class Rule:
    """`action` for call `name` when every comparison holds: (argument, op, a, b), libseccomp's
    ops (EQ: arg == a, NE: arg != a, MASKED_EQ: arg & a == b) on all 64 bits."""

    action: int
    name: str
    cmps: tuple[tuple[int, int, int, int], ...] = ()


def rules() -> tuple[Rule, ...]:
    """The policy, once, as data (assemble writes it as BPF; the tests hold it to libseccomp's)."""
    # Where a call is needed but not every use of it:
    # - clone: no namespace flag (a check never builds itself a new world);
    # - prctl: names, the death signal, reading state; PR_SET_DUMPABLE only to 0, so a check never
    #   becomes dumpable again (its /proc/self/mem stays root's);
    # - ioctl: terminal probes (TCGETS, TIOCGWINSZ), FIONBIO, FIOCLEX/FIONCLEX, FIONREAD; anything
    #   else is ENOTTY, what a program gets from a descriptor that is not a terminal anyway;
    # - fcntl: descriptor flags, file status flags, record and OFD locks, F_GETPIPE_SZ; not
    #   F_SETOWN/F_SETSIG (signals on I/O), F_NOTIFY (dnotify), leases, F_SETPIPE_SZ (the per-user
    #   pipe quota is shared);
    # - socket/socketpair: AF_UNIX only (EAFNOSUPPORT otherwise: no network, netlink, packet...);
    # - mknod: FIFOs and regular files only;
    # - mmap: not MAP_HUGETLB (ENOMEM, what a host without a huge page pool says): huge pages come
    #   from the machine's hugetlb pool (vm.nr_hugepages, surplus up to nr_overcommit_hugepages),
    #   which no memory cgroup of a check is charged for;
    # - preadv2/pwritev2: not RWF_NOWAIT (EOPNOTSUPP, what a file system without it says): a read
    #   that fails instead of waiting tells whether a file's pages are in the page cache, which
    #   every check's root shares (the mincore channel, without mincore);
    # - open/openat, fcntl(F_SETFL): not O_DIRECT (EINVAL, what a file system without direct I/O
    #   says): a direct read of a root file goes to the host's disk every time, never to the page
    #   cache, so one check with no CPU to speak of kept the machine's disk busy (1.4 GiB in 3 s);
    # - madvise: the advice values CPython, numpy, pytest and the toolchains use (MADVICES, from strace
    #   of their runs: the caller's own pages only); not MADV_MERGEABLE (KSM merges identical pages
    #   across the machine: a write fault's time tells another check's content), PAGEOUT/COLD (swap
    #   I/O), REMOVE, COLLAPSE, POPULATE_*, HWPOISON/SOFT_OFFLINE or any later advice (low 32 bits);
    # - fadvise64: every advice but POSIX_FADV_DONTNEED, which succeeds and does nothing: through
    #   the root's overlays it dropped the *host's* cached pages of any file the root shows (no
    #   permission is asked), slowing every other check and the host, and setting at will the
    #   page-cache residency another check can sense. The advice is an int: only its low 32 bits
    #   are compared, as the kernel reads it.
    out: list[Rule] = []

    def rule(action: int, name: str, *cmps: tuple[int, int, int, int]) -> None:
        out.append(Rule(action, name, cmps))

    eperm = SCMP_ACT_ERRNO_BASE | errno.EPERM
    for group in ALLOWED.values():
        for name in group:
            rule(SCMP_ACT_ALLOW, name)
    rule(SCMP_ACT_ALLOW, "clone", (0, SCMP_CMP_MASKED_EQ, NS_FLAGS, 0))
    for bit in range(31):
        if NS_FLAGS >> bit & 1:
            rule(eperm, "clone", (0, SCMP_CMP_MASKED_EQ, 1 << bit, 1 << bit))
    for option in PRCTL_ANY_ARG:
        rule(SCMP_ACT_ALLOW, "prctl", (0, SCMP_CMP_EQ, option, 0))
    rule(SCMP_ACT_ALLOW, "prctl", (0, SCMP_CMP_EQ, PR_SET_DUMPABLE, 0), (1, SCMP_CMP_EQ, 0, 0))
    for request in IOCTLS:
        rule(SCMP_ACT_ALLOW, "ioctl", (1, SCMP_CMP_EQ, request, 0))
    for cmd in FCNTLS:
        rule(SCMP_ACT_ALLOW, "fcntl", (1, SCMP_CMP_EQ, cmd, 0))
    rule(SCMP_ACT_ALLOW, "fcntl", (1, SCMP_CMP_EQ, F_SETFL, 0), (2, SCMP_CMP_MASKED_EQ, O_DIRECT, 0))
    rule(SCMP_ACT_ERRNO_BASE | errno.EINVAL, "fcntl", (1, SCMP_CMP_EQ, F_SETFL, 0), (2, SCMP_CMP_MASKED_EQ, O_DIRECT, O_DIRECT))
    for name, flags_at in (("open", 1), ("openat", 2)):
        rule(SCMP_ACT_ALLOW, name, (flags_at, SCMP_CMP_MASKED_EQ, O_DIRECT, 0))
        rule(SCMP_ACT_ERRNO_BASE | errno.EINVAL, name, (flags_at, SCMP_CMP_MASKED_EQ, O_DIRECT, O_DIRECT))
    for name in ("socket", "socketpair"):
        rule(SCMP_ACT_ALLOW, name, (0, SCMP_CMP_EQ, AF_UNIX, 0))
        # "This family does not exist here": what a program without networking expects.
        rule(SCMP_ACT_ERRNO_BASE | errno.EAFNOSUPPORT, name, (0, SCMP_CMP_NE, AF_UNIX, 0))
    for kind in (S_IFIFO, S_IFREG):
        rule(SCMP_ACT_ALLOW, "mknod", (1, SCMP_CMP_MASKED_EQ, S_IFMT, kind))
        rule(SCMP_ACT_ALLOW, "mknodat", (2, SCMP_CMP_MASKED_EQ, S_IFMT, kind))
    rule(SCMP_ACT_ALLOW, "mmap", (3, SCMP_CMP_MASKED_EQ, MAP_HUGETLB, 0))
    rule(SCMP_ACT_ERRNO_BASE | errno.ENOMEM, "mmap", (3, SCMP_CMP_MASKED_EQ, MAP_HUGETLB, MAP_HUGETLB))
    for name in ("preadv2", "pwritev2"):  # flags: the sixth argument, an int
        rule(SCMP_ACT_ALLOW, name, (5, SCMP_CMP_MASKED_EQ, RWF_NOWAIT, 0))
        rule(SCMP_ACT_ERRNO_BASE | errno.EOPNOTSUPP, name, (5, SCMP_CMP_MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    for advice in FADVICES:  # fadvise64(fd, offset, len, advice)
        rule(SCMP_ACT_ALLOW, "fadvise64", (3, SCMP_CMP_MASKED_EQ, LOW_32, advice))
    rule(SCMP_ACT_ERRNO_BASE | 0, "fadvise64", (3, SCMP_CMP_MASKED_EQ, LOW_32, POSIX_FADV_DONTNEED))
    for advice in MADVICES:  # madvise(addr, len, advice)
        rule(SCMP_ACT_ALLOW, "madvise", (2, SCMP_CMP_MASKED_EQ, LOW_32, advice))
    return tuple(out)


def _table(numbers: str) -> dict[str, int]:
    return {name: int(nr) for name, nr in zip(CALLS, numbers.split(), strict=True) if nr != "-"}


# The call numbers of every name the policy and the channel's guard use, per architecture (the
# kernel's unistd tables; test_seccomp checks each against libseccomp's), in the order of CALLS.
# A name missing from an architecture ("-": arm64 has no open, fork, dup2...) is not a call there.
CALLS = """
accept accept4 access alarm arch_prctl bind brk capget chdir chmod clock_getres clock_gettime
clock_nanosleep clone close close_range connect copy_file_range creat dup dup2 dup3 epoll_create
epoll_create1 epoll_ctl epoll_pwait epoll_pwait2 epoll_wait eventfd2 execve exit exit_group
faccessat faccessat2 fadvise64 fallocate fchdir fchmod fchmodat fcntl fdatasync fgetxattr flistxattr
flock fork fremovexattr fsetxattr fstat fstatfs fsync ftruncate futex futex_waitv futimesat getcpu
getcwd getdents64 getegid geteuid getgid getgroups getitimer getpeername getpgid getpgrp getpid
getppid getpriority getrandom getresgid getresuid getrlimit getrusage getsid getsockname getsockopt
gettid gettimeofday getuid getxattr ioctl kill lgetxattr link linkat listen listxattr llistxattr
lremovexattr lseek lsetxattr lstat madvise mkdir mkdirat mknod mknodat mmap mprotect mremap msync
munmap nanosleep newfstatat open openat pause pidfd_open pidfd_send_signal pipe pipe2 pkey_alloc
pkey_free pkey_mprotect poll ppoll prctl pread64 preadv preadv2 prlimit64 pselect6 pwrite64 pwritev
pwritev2 read readlink readlinkat readv recvfrom recvmmsg recvmsg removexattr rename renameat
renameat2 restart_syscall rmdir rseq rt_sigaction rt_sigpending rt_sigprocmask rt_sigreturn
rt_sigsuspend rt_sigtimedwait sched_get_priority_max sched_get_priority_min sched_getaffinity
sched_getparam sched_getscheduler sched_setaffinity sched_yield select sendfile sendmmsg sendmsg
sendto set_robust_list set_tid_address setitimer setpgid setpriority setrlimit setsid setsockopt
setxattr shutdown sigaltstack socket socketpair splice stat statfs statx symlink symlinkat sysinfo
tgkill time times tkill truncate umask uname unlink unlinkat utime utimensat utimes vfork wait4
waitid write writev
""".split()
X86_64 = _table("""
43 288 21 37 158 49 12 125 80 90 229 228 230 56 3 436 42 326 85 32 33 292 213 291 233 281 441 232
290 59 60 231 269 439 221 285 81 91 268 72 75 193 196 73 57 199 190 5 138 74 77 202 449 261 309 79
217 108 107 104 115 36 52 121 111 39 110 140 318 120 118 97 98 124 51 55 186 96 102 191 16 62 192 86
265 50 194 195 198 8 189 6 28 83 258 133 259 9 10 25 26 11 35 262 2 257 34 434 424 22 293 330 331
329 7 271 157 17 295 327 302 270 18 296 328 0 89 267 19 45 299 47 197 82 264 316 219 84 334 13 127
14 15 130 128 146 147 204 143 145 203 24 23 40 307 46 44 273 218 38 109 141 160 112 54 188 48 131 41
53 275 4 137 332 88 266 99 234 201 100 200 76 95 63 87 263 132 280 235 58 61 247 1 20
""")
AARCH64 = _table("""
202 242 - - - 200 214 90 49 - 114 113 115 220 57 436 203 285 - 23 - 24 - 20 21 22 441 - 19 221 93 94
48 439 223 47 50 52 53 25 83 10 13 32 - 16 7 80 44 82 46 98 449 - 168 17 61 177 175 176 158 102 205
155 - 172 173 141 278 150 148 163 165 156 204 209 178 169 174 8 29 129 9 - 37 201 11 12 15 62 6 -
233 - 34 - 33 222 226 216 227 215 101 79 - 56 - 434 424 - 59 289 290 288 - 73 167 67 69 286 261 72
68 70 287 63 - 78 65 207 243 212 14 - 38 276 128 - 293 134 136 135 139 133 137 125 126 123 121 120
122 124 - 71 269 211 206 99 96 103 154 140 164 157 208 5 210 132 198 199 76 - 43 291 - 36 179 131 -
153 130 45 166 160 - 35 - 88 - - 260 95 64 66
""")
AUDIT_ARCH_X86_64, AUDIT_ARCH_AARCH64 = 0xC000003E, 0xC00000B7
X32_SYSCALL_BIT = 0x40000000
ARCHES: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (AUDIT_ARCH_X86_64, X86_64), "aarch64": (AUDIT_ARCH_AARCH64, AARCH64), "arm64": (AUDIT_ARCH_AARCH64, AARCH64)}
SECCOMP_RET_KILL_THREAD = 0x00000000


@dataclass
class Filter:
    """A compiled BPF program, ready to be loaded by a forked child with one prctl."""

    program: bytes
    allowed: tuple[str, ...]  # calls let through (some only with the arguments listed above)
    channel_fd: int | None = None  # the descriptor the program keeps in place (channel_guard)

    def portable(self) -> dict[str, Any]:
        """What a runner in another sandbox on this architecture needs to load the same
        policy (the gVisor and Beam runners: sandbox/inner.py), with the channel's number."""
        import base64
        import platform

        return {"machine": platform.machine(), "program": base64.b64encode(self.program).decode(),
                "channel_fd": self.channel_fd}

    @classmethod
    def from_portable(cls, spec: Any) -> Filter | None:
        """The inverse of portable(); None when it was made for another architecture."""
        import base64
        import platform

        if not isinstance(spec, dict) or spec.get("machine") != platform.machine():
            return None
        fd = spec.get("channel_fd")
        return cls(program=base64.b64decode(spec["program"]), allowed=(), channel_fd=fd if type(fd) is int else None)

    def load(self) -> None:
        """Install the filter on the calling thread (needs no_new_privs or CAP_SYS_ADMIN)."""
        linux.seccomp_load(self.program)


# struct sock_filter codes, and where struct seccomp_data keeps what the programs read
BPF_LD_W_ABS, BPF_ALU_AND_K = 0x20, 0x54
BPF_JEQ_K, BPF_JGT_K, BPF_JGE_K, BPF_JA, BPF_RET_K = 0x15, 0x25, 0x35, 0x05, 0x06
NR_AT, ARCH_AT = 0, 4
LOW_WORD = 0  # both architectures here are little-endian: an argument's low 32 bits come first


def _arg_low(i: int) -> int:
    return 16 + 8 * i + LOW_WORD


def _arg_high(i: int) -> int:
    return 16 + 8 * i + 4 - LOW_WORD


Op = tuple[int, "int | str", "int | str", "int | str"]  # (code, jt, jf, k); a str names a label


def _encode(code: list[Op | str]) -> bytes:
    # sock_filter bytes of `code`, where a str item places a label. Conditional jumps count from the
    # next instruction and reach at most 255 ahead; JA's distance sits in k.
    labels: dict[str, int] = {}
    ops: list[Op] = []
    for item in code:
        if isinstance(item, str):
            labels[item] = len(ops)
        else:
            ops.append(item)
    out = bytearray()
    for i, (op, *fields) in enumerate(ops):
        jt, jf, k = (labels[f] - i - 1 if isinstance(f, str) else f for f in fields)
        if not (0 <= jt <= 255 and 0 <= jf <= 255 and 0 <= k <= 0xFFFFFFFF):
            raise SeccompUnavailable(f"BPF jump out of range at instruction {i}")
        out += struct.pack("=HBBI", op, jt, jf, k)
    return bytes(out)


def channel_guard(fd: int, arch: int, numbers: dict[str, int]) -> bytes:
    """BPF instructions refusing (EPERM) to replace or free descriptor `fd`, as a prefix."""
    # dup2/dup3 with `fd` as the new descriptor, close(fd), close_range over it. Anything else
    # (and any call of another architecture) falls through to the program that follows: `numbers`
    # are this architecture's call numbers (a missing one, e.g. dup2 on arm64, is not checked).
    # Jumps are relative, so it works as a prefix.
    code: list[Op | str] = [(BPF_LD_W_ABS, 0, 0, ARCH_AT), (BPF_JEQ_K, 0, "next", arch), (BPF_LD_W_ABS, 0, 0, NR_AT)]
    for name, label in (("dup2", "newfd"), ("dup3", "newfd"), ("close", "first"), ("close_range", "range")):
        if name in numbers:
            code.append((BPF_JEQ_K, label, 0, numbers[name]))
    code += [(BPF_JA, 0, 0, "next"),
             "newfd", (BPF_LD_W_ABS, 0, 0, _arg_low(1)), (BPF_JEQ_K, "deny", "next", fd),
             "first", (BPF_LD_W_ABS, 0, 0, _arg_low(0)), (BPF_JEQ_K, "deny", "next", fd),
             "range", (BPF_LD_W_ABS, 0, 0, _arg_low(0)), (BPF_JGT_K, "next", 0, fd),  # starts past fd
             (BPF_LD_W_ABS, 0, 0, _arg_low(1)), (BPF_JGE_K, "deny", "next", fd),
             "deny", (BPF_RET_K, 0, 0, SCMP_ACT_ERRNO_BASE | errno.EPERM), "next"]
    return _encode(code)


def _word(at: int, op: int, a: int, b: int, fail: str) -> list[Op | str]:
    # One 32-bit word of an EQ or MASKED_EQ comparison: on to the next instruction when it holds, to
    # `fail` when not.
    if op == SCMP_CMP_EQ:
        return [(BPF_LD_W_ABS, 0, 0, at), (BPF_JEQ_K, 0, fail, a)]
    if b & ~a:
        return [(BPF_JA, 0, 0, fail)]  # never equal
    if not a:
        return []  # always equal
    return [(BPF_LD_W_ABS, 0, 0, at), (BPF_ALU_AND_K, 0, 0, a), (BPF_JEQ_K, 0, fail, b)]


def _compare(arg: int, op: int, a: int, b: int, fail: str, fresh: Any) -> list[Op | str]:
    # Instructions that go on when argument `arg` satisfies (op, a, b) on all 64 bits, and jump to
    # `fail` when it does not.
    if op == SCMP_CMP_NE:  # either half differs
        ok = fresh()
        return [(BPF_LD_W_ABS, 0, 0, _arg_high(arg)), (BPF_JEQ_K, 0, ok, a >> 32),
                (BPF_LD_W_ABS, 0, 0, _arg_low(arg)), (BPF_JEQ_K, fail, 0, a & LOW_32), ok]
    if op not in (SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ):
        raise SeccompUnavailable(f"comparison {op} is not one the assembler knows")
    return (_word(_arg_high(arg), op, a >> 32, b >> 32, fail)
            + _word(_arg_low(arg), op, a & LOW_32, b & LOW_32, fail))


def _groups(rs: list[Rule]) -> list[list[Rule]]:
    # Consecutive rules of one call that compare the same argument once, the same way, with the same
    # high word and action (prctl's options, ioctl's requests, fcntl's commands, the advice values):
    # one group each, whose high word is checked once. Any other rule stands alone.
    def key(r: Rule) -> tuple[int, ...] | None:
        if len(r.cmps) != 1 or r.cmps[0][1] not in (SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ):
            return None
        arg, op, a, b = r.cmps[0]
        return (r.action, arg, op, a >> 32 if op == SCMP_CMP_EQ else a, b >> 32 if op == SCMP_CMP_MASKED_EQ else 0)

    out: list[list[Rule]] = []
    for r in rs:
        if out and key(r) is not None and key(out[-1][0]) == key(r):
            out[-1].append(r)
        else:
            out.append([r])
    return out


LEAF = 6  # calls compared one by one at the bottom of the search tree


def assemble(policy: tuple[Rule, ...], arch: int, numbers: dict[str, int]) -> bytes:
    """The classic BPF program of `policy` for one architecture (`arch`, its call `numbers`)."""
    # Calls of any other architecture (and, on x86-64, of the x32 ABI) kill the thread; a binary
    # search on the call number leads to each call's action, or to the checks of its arguments
    # (each rule in turn, its comparisons on all 64 bits); what no rule lets through is ENOSYS.
    # The kernel runs the program for every call number when it is loaded (seccomp's action
    # cache), so the search keeps that short (~14 instructions a number; a plain list ran ~170).
    enosys = SCMP_ACT_ERRNO_BASE | errno.ENOSYS
    by_nr: dict[int, list[Rule]] = {}
    for r in policy:
        if r.name in numbers:
            by_nr.setdefault(numbers[r.name], []).append(r)
    counter = iter(range(1 << 30))

    def fresh() -> str:
        return f"L{next(counter)}"

    code: list[Op | str] = [(BPF_LD_W_ABS, 0, 0, ARCH_AT), (BPF_JEQ_K, 1, 0, arch),
                            (BPF_RET_K, 0, 0, SECCOMP_RET_KILL_THREAD), (BPF_LD_W_ABS, 0, 0, NR_AT)]
    if arch == AUDIT_ARCH_X86_64:
        # x32 calls carry the native audit arch with bit 30 set in the number; -1 (no call,
        # a tracer's skip) goes on to the rules and is refused as unknown.
        code += [(BPF_JGE_K, 0, 2, X32_SYSCALL_BIT), (BPF_JEQ_K, 1, 0, 0xFFFFFFFF),
                 (BPF_RET_K, 0, 0, SECCOMP_RET_KILL_THREAD)]
    blocks: list[Op | str] = []

    def leaf(nrs: list[int]) -> None:
        plain: dict[int, str] = {}
        jumps: list[Op | str] = []
        for nr in nrs:
            rs = by_nr[nr]
            if all(not r.cmps for r in rs):
                target = plain.setdefault(rs[0].action, fresh())
            else:
                target, block = fresh(), fresh()
                jumps.extend([target, (BPF_JA, 0, 0, block)])
                blocks.append(block)
                for group in _groups(rs):
                    nope = fresh()
                    if len(group) == 1:
                        for cmp in group[0].cmps:
                            blocks.extend(_compare(*cmp, nope, fresh))
                        blocks.extend([(BPF_RET_K, 0, 0, group[0].action), nope])
                        continue
                    # one argument against several values: its high word once, then a jump
                    # per value of its low word
                    arg, op, a, _ = group[0].cmps[0]
                    take = fresh()
                    blocks.extend(_word(_arg_high(arg), op, a >> 32, group[0].cmps[0][3] >> 32, nope))
                    blocks.append((BPF_LD_W_ABS, 0, 0, _arg_low(arg)))
                    if op == SCMP_CMP_MASKED_EQ:
                        blocks.append((BPF_ALU_AND_K, 0, 0, a & LOW_32))
                    for r in group:
                        blocks.append((BPF_JEQ_K, take, 0, (r.cmps[0][2] if op == SCMP_CMP_EQ else r.cmps[0][3]) & LOW_32))
                    blocks.extend([(BPF_JA, 0, 0, nope), take, (BPF_RET_K, 0, 0, group[0].action), nope])
                blocks.append((BPF_RET_K, 0, 0, enosys))
            code.append((BPF_JEQ_K, target, 0, nr))
        code.append((BPF_RET_K, 0, 0, enosys))
        for action, label in plain.items():
            code.extend([label, (BPF_RET_K, 0, 0, action)])
        code.extend(jumps)

    def tree(nrs: list[int]) -> None:
        if len(nrs) <= LEAF:
            return leaf(nrs)
        mid = len(nrs) // 2
        right = fresh()
        code.append((BPF_JGE_K, right, 0, nrs[mid]))
        tree(nrs[:mid])
        code.append(right)
        tree(nrs[mid:])

    tree(sorted(by_nr))
    return _encode(code + blocks)


def arch_of(machine: str | None = None) -> tuple[int, dict[str, int]]:
    """The audit arch and call numbers of `machine` (platform.machine() by default). Raises
    SeccompUnavailable where there is no table."""
    import platform

    machine = machine or platform.machine()
    if machine not in ARCHES:
        raise SeccompUnavailable(f"no syscall table for this machine's architecture ({machine}): "
                                 "the filter is written for x86_64 and aarch64")
    return ARCHES[machine]


def compile_filter(channel_fd: int | None = None, machine: str | None = None) -> Filter:
    """Build the check policy for this machine's architecture (or `machine`'s), with the result
    channel's guard in front when `channel_fd` is given: pure Python, no library, ~1 ms.
    Raises SeccompUnavailable on an architecture without a table."""
    arch, numbers = arch_of(machine)
    program, allowed = _policy_program(arch)
    if channel_fd is not None:
        program = channel_guard(channel_fd, arch, numbers) + program
    return Filter(program=program, allowed=allowed, channel_fd=channel_fd)


@functools.lru_cache(maxsize=2)
def _policy_program(arch: int) -> tuple[bytes, tuple[str, ...]]:
    # The policy's program for `arch` and the calls it lets through: assembled once per process (a
    # seed does it before forking its workers).
    numbers = X86_64 if arch == AUDIT_ARCH_X86_64 else AARCH64
    policy = rules()
    allowed = {r.name for r in policy if r.action == SCMP_ACT_ALLOW and r.name in numbers}
    return assemble(policy, arch, numbers), tuple(sorted(allowed))
