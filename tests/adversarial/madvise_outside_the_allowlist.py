# madvise's advice is an allowlist too: only what CPython, numpy, pytest and the toolchains were
# seen to ask (strace of their runs) and its pairs. MADV_MERGEABLE hands the check's pages to
# KSM, which merges identical pages across every process of the machine: a write fault's timing
# then tells whether another check holds the same page (a channel, latent where KSM is off);
# PAGEOUT/COLD push pages to swap (host I/O); REMOVE, COLLAPSE, POPULATE_*, HWPOISON, SOFT_OFFLINE
# and any advice added later nobody here looked at. Each tried on an anonymous mapping of the
# check's own, also with garbage in the upper 32 bits (the kernel reads the advice as an int);
# the advice honest programs use must still work.
import ctypes
import errno
import mmap

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
size = 1 << 21
m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
buf = ctypes.c_char.from_buffer(m)
addr = ctypes.addressof(buf)
m.write(b"\1" * size)


def advise(advice):
    rc = libc.syscall(28, ctypes.c_void_p(addr), ctypes.c_size_t(size), ctypes.c_long(advice))
    return rc, ctypes.get_errno() if rc else 0


REFUSED = {"MERGEABLE": 12, "UNMERGEABLE": 13, "REMOVE": 9, "COLD": 20, "PAGEOUT": 21, "POPULATE_READ": 22,
           "POPULATE_WRITE": 23, "DONTNEED_LOCKED": 24, "COLLAPSE": 25, "HWPOISON": 100, "SOFT_OFFLINE": 101,
           "MERGEABLE_HIGH_BITS": (1 << 32) | 12, "PAGEOUT_HIGH_BITS": (1 << 32) | 21, "unknown 64": 64}
HONEST = {"NORMAL": 0, "RANDOM": 1, "SEQUENTIAL": 2, "WILLNEED": 3, "DONTNEED": 4, "FREE": 8, "DONTFORK": 10,
          "DOFORK": 11, "HUGEPAGE": 14, "NOHUGEPAGE": 15, "DONTDUMP": 16, "DODUMP": 17}
took = [name for name, advice in REFUSED.items() if advise(advice)[0] == 0]
# ENOSYS is the filter's answer; a kernel may lack an advice itself (gVisor: MADV_FREE, EINVAL)
failed = [name for name, advice in HONEST.items() if advise(advice)[1] == errno.ENOSYS]
print("took", took)
print("honest failed", failed)
del buf
m.close()


def escaped():
    return bool(took) or bool(failed)
