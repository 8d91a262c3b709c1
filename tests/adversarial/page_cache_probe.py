# Maps a file every check shares and asks the kernel which of its pages are in the page cache
# (mincore): whether another check just read it, a channel between checks.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
path = os.path.join(os.path.dirname(os.__file__), "decimal.py")
size = os.path.getsize(path)
fd = os.open(path, os.O_RDONLY)
p = libc.mmap(None, ctypes.c_size_t(size), 1, 1, fd, ctypes.c_long(0))  # PROT_READ, MAP_SHARED
vec = ctypes.create_string_buffer((size + 4095) // 4096)
ret = libc.mincore(ctypes.c_void_p(p), ctypes.c_size_t(size), vec)
print("mincore", ret, os.strerror(ctypes.get_errno()))


def escaped():
    return ret == 0
