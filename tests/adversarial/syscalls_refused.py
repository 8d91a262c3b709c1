# Calls what seccomp refuses even to root-in-a-namespace: ptrace, new namespaces, keyrings,
# bpf, perf, userfaultfd, io_uring, personality, inet/netlink/packet sockets.
import ctypes
import os
import socket

libc = ctypes.CDLL(None, use_errno=True)
allowed = []
calls = {
    "ptrace": (101, 0, 0, 0, 0),           # PTRACE_TRACEME
    "unshare": (272, 0x10000000, 0, 0, 0),  # CLONE_NEWUSER
    "keyctl": (250, 0, 0, 0, 0),
    "bpf": (321, 0, 0, 0, 0),
    "perf_event_open": (298, 0, 0, -1, -1),
    "userfaultfd": (323, 0, 0, 0, 0),
    "io_uring_setup": (425, 1, 0, 0, 0),
    "personality": (135, 0x0040000, 0, 0, 0),  # ADDR_NO_RANDOMIZE
}
for name, (nr, *args) in calls.items():
    ret = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    err = ctypes.get_errno()
    print(name, ret, os.strerror(err))
    if ret >= 0 or err not in (1, 38):  # EPERM / ENOSYS are the filter's answers
        allowed.append(name)
for fam in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET):
    try:
        socket.socket(fam, socket.SOCK_RAW if fam == socket.AF_PACKET else socket.SOCK_DGRAM).close()
        allowed.append(str(fam))
    except OSError as exc:
        print(fam, exc)


def escaped():
    return bool(allowed)
