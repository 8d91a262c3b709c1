# Keeps the machine's disk busy at almost no CPU: O_DIRECT reads of a file every root shows go
# to the host's disk each time, never to the page cache (the overlay passes the flag to the
# host's file), and no cgroup of the check limits I/O. Asked by open, by the raw openat call,
# and by fcntl(F_SETFL) on a descriptor opened without it.
import ctypes
import mmap
import os
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)
target = os.path.realpath(sys.executable)
direct = []
buf = mmap.mmap(-1, 1 << 20)


def drain(fd):
    total, t = 0, time.monotonic()
    while time.monotonic() - t < 0.5:
        n = os.preadv(fd, [buf], 0)
        if n <= 0:
            break
        total += n
    return total


try:
    fd = os.open(target, os.O_RDONLY | os.O_DIRECT)
    direct.append(("open", drain(fd) >> 20))
    os.close(fd)
except OSError as exc:
    print("open O_DIRECT:", exc.strerror, flush=True)
fd = libc.syscall(ctypes.c_long(257), ctypes.c_long(-100), ctypes.c_char_p(target.encode()),
                  ctypes.c_long(os.O_RDONLY | os.O_DIRECT | (0x5A << 32)), ctypes.c_long(0))
if fd >= 0:
    direct.append(("raw openat", drain(fd) >> 20))
    os.close(fd)
fd = os.open(target, os.O_RDONLY)
try:
    import fcntl

    fcntl.fcntl(fd, fcntl.F_SETFL, os.O_DIRECT)
    if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT:
        direct.append(("F_SETFL", drain(fd) >> 20))
except OSError as exc:
    print("F_SETFL O_DIRECT:", exc.strerror, flush=True)
os.close(fd)
print("direct", direct, flush=True)


def escaped():
    return bool(direct)
