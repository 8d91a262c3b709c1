# Asks the kernel to signal a process when a descriptor becomes ready or a file changes: the
# owner of async I/O set by fcntl (F_SETOWN, F_SETOWN_EX, F_SETSIG) or ioctl (FIOSETOWN,
# SIOCSPGRP, FIOASYNC), leases and dnotify on files, a pipe grown past the per-user quota,
# seals. Signals by I/O name processes by pid or group, outside any pid namespace's view.
import ctypes
import os
import socket
import struct

libc = ctypes.CDLL(None, use_errno=True)
took = []
r, w = os.pipe()
s1, s2 = socket.socketpair()
fd_file = os.open(os.getcwd(), os.O_RDONLY | os.O_DIRECTORY)
own = struct.pack("ii", 0, 1)
owner = ctypes.create_string_buffer(own)
one = ctypes.c_int(1)
calls = {
    "fcntl F_SETOWN": (72, r, 8, 1), "fcntl F_SETOWN pgrp": (72, s1.fileno(), 8, -1),
    "fcntl F_SETOWN_EX": (72, r, 15, ctypes.addressof(owner)), "fcntl F_SETSIG": (72, r, 10, 10),
    "fcntl F_SETLEASE": (72, fd_file, 1024, 0), "fcntl F_NOTIFY": (72, fd_file, 1026, 0x80000001),
    "fcntl F_SETPIPE_SZ": (72, w, 1031, 1 << 20), "fcntl F_ADD_SEALS": (72, r, 1033, 1),
    "ioctl FIOSETOWN": (16, s1.fileno(), 0x8901, ctypes.addressof(one)),
    "ioctl SIOCSPGRP": (16, s1.fileno(), 0x8902, ctypes.addressof(one)),
    "ioctl FIOASYNC": (16, r, 0x5452, ctypes.addressof(one)),
    "ioctl TIOCSCTTY": (16, 0, 0x540E, 0), "ioctl TIOCNOTTY": (16, 0, 0x5422, 0),
}
for name, (nr, *args) in calls.items():
    ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    err = ctypes.get_errno()
    print(name, ret, os.strerror(err) if ret < 0 else "", flush=True)
    if ret >= 0:
        took.append(name)
print("took", took, flush=True)


def escaped():
    return bool(took)
