# Makes itself dumpable again (prctl(PR_SET_DUMPABLE, 1)), then reads its own memory through
# /proc/self/mem, reached relative to a directory descriptor (no path a Python hook would see):
# with it, a check could read the harness's secrets out of its own process.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
got = []
ret = libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE, 1
print("prctl", ret, os.strerror(ctypes.get_errno()))
if ret == 0:
    got.append("dumpable")
root = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
for rel in ("proc/self/mem", "proc/self/pagemap", "proc/1/mem", "proc/self/task/1/mem"):
    try:
        fd = os.open(rel, os.O_RDONLY, dir_fd=root)
        os.close(fd)
        got.append(rel)
    except OSError as exc:
        print(rel, exc)
for nr, name in ((310, "process_vm_readv"), (101, "ptrace"), (312, "kcmp"), (438, "pidfd_getfd")):
    buf = ctypes.create_string_buffer(8)
    args = (os.getpid(), 0, 0, 0, 0) if nr != 101 else (16, 1, 0, 0)  # PTRACE_ATTACH pid 1
    if libc.syscall(nr, *[ctypes.c_long(a) for a in args]) >= 0:
        got.append(name)
    print(name, os.strerror(ctypes.get_errno()))


def escaped():
    return bool(got)
