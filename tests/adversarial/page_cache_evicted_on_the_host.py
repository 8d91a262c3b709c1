# Drops the host's cached pages of files every check's root shows: posix_fadvise(DONTNEED)
# asks no permission, and through an overlay it reaches the host's own file. Done to every
# file of the root, every check of the machine (and the host) reads them from disk again;
# done to one file at will, it sets the bit another check senses through page-cache
# residency. Also through the raw call with garbage in the advice's upper 32 bits, which the
# kernel ignores (it reads an int).
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
advised = []
for path in [os.path.join(os.path.dirname(sys.modules["rlvr_harness"].__file__), "$NAME"), os.__file__]:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        print(path, exc.strerror, flush=True)
        continue
    with open(path, "rb") as fh:
        fh.read()  # the page cache is what it evicts: make sure there is some
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    advice = ctypes.c_long((0xDEAD << 32) | os.POSIX_FADV_DONTNEED)
    if libc.syscall(ctypes.c_long(221), ctypes.c_long(fd), ctypes.c_long(0), ctypes.c_long(0), advice) == 0:
        advised.append(path)
    os.close(fd)
honest = []  # what programs ask, which must keep working
for advice in (os.POSIX_FADV_NORMAL, os.POSIX_FADV_RANDOM, os.POSIX_FADV_SEQUENTIAL, os.POSIX_FADV_WILLNEED,
               os.POSIX_FADV_NOREUSE):
    with open(os.__file__, "rb") as fh:
        os.posix_fadvise(fh.fileno(), 0, 0, advice)
        honest.append(advice)
print("advised", advised, "other advice", honest, flush=True)


def escaped():
    return False
