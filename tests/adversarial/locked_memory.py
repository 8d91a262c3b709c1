# Locks memory though mlock, mlock2 and mlockall are refused: mmap(MAP_LOCKED) locks a mapping
# as it makes it (up to RLIMIT_MEMLOCK, the grader's 8 MiB default, in every process of the
# check), and mremap keeps a region locked as it grows. Locked pages are never reclaimed.
import ctypes
import mmap

MAP_LOCKED = 0x2000
locked = []
try:
    m = mmap.mmap(-1, 4 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_LOCKED)
    m[0] = 1
    locked.append("mmap(MAP_LOCKED)")
except OSError as exc:
    print("MAP_LOCKED", exc.strerror, flush=True)
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(4096)
for name, nr, args in (("mlock", 149, (ctypes.addressof(buf), 4096)), ("mlock2", 325, (ctypes.addressof(buf), 4096, 0)),
                       ("mlockall", 151, (3,))):
    if libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args]) == 0:
        locked.append(name)
with open("/proc/self/status") as fh:
    vmlck = [line.split()[1] for line in fh if line.startswith("VmLck")]
print("locked", locked, "VmLck", vmlck, flush=True)


def escaped():
    return bool(locked) or vmlck not in ([], ["0"])
