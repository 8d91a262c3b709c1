# Huge pages from the host's hugetlb pool (vm.nr_hugepages, and surplus pages up to
# vm.nr_overcommit_hugepages): a pool of the whole machine, and not charged to the check's
# memory cgroup (cgroup v1 has a hugetlb controller of its own). A check that maps them holds
# pages a host database or VM reserved for itself, or, with overcommit, memory past its cap.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
MAP_PRIVATE, MAP_SHARED, MAP_ANONYMOUS, MAP_HUGETLB, MAP_HUGE_2MB = 0x02, 0x01, 0x20, 0x40000, 21 << 26
FAILED = ctypes.c_void_p(-1).value
took = []
for name, flags in (("private", MAP_PRIVATE), ("shared", MAP_SHARED), ("private 2MB", MAP_PRIVATE | MAP_HUGE_2MB)):
    addr = libc.mmap(None, 2 << 20, 3, flags | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0)
    err = ctypes.get_errno()
    if addr in (None, FAILED):
        print(name, "refused:", os.strerror(err))
        continue
    ctypes.memset(addr, 1, 2 << 20)  # fault the huge page in: now it is taken from the pool
    took.append(name)
print("took", took)


def escaped():
    return bool(took)
