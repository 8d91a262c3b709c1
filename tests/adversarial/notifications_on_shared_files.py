# Watches files every check shares (the interpreter, the stdlib) for another check's accesses:
# inotify, fanotify and dnotify (fcntl F_NOTIFY) on a directory of the root, and a lease.
import ctypes
import fcntl
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
got = []
fd = libc.inotify_init1(0)
if fd >= 0:
    if libc.inotify_add_watch(fd, os.path.dirname(os.__file__).encode(), 0xFFF) >= 0:
        got.append("inotify")
print("inotify", fd, os.strerror(ctypes.get_errno()))
fan = libc.syscall(300, ctypes.c_long(0), ctypes.c_long(0))  # fanotify_init
if fan >= 0:
    got.append("fanotify")
d = os.open(os.path.dirname(os.__file__), os.O_RDONLY | os.O_DIRECTORY)
try:
    fcntl.fcntl(d, 1026, 0x80000001)  # F_NOTIFY, DN_ACCESS | DN_MULTISHOT
    got.append("dnotify")
except OSError as exc:
    print("dnotify", exc)
with open("/tmp/own", "w") as fh:
    try:
        fcntl.fcntl(fh, 1024, fcntl.F_RDLCK)  # F_SETLEASE on its own file
        got.append("lease")
    except OSError as exc:
        print("lease", exc)
    try:
        fcntl.fcntl(fh, 8, os.getpid())  # F_SETOWN: signals on another's I/O
        got.append("setown")
    except OSError as exc:
        print("setown", exc)
print("got", got, sys.version_info[:2])


def escaped():
    return bool(got)
