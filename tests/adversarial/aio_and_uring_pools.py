# Drains the host's pools of asynchronous-I/O contexts (fs.aio-max-nr is host-wide) and opens
# io_uring instances: host processes would then fail io_setup while the check runs.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
made = 0
for _ in range(64):
    ctx = ctypes.c_ulong(0)
    if libc.syscall(206, ctypes.c_long(65536), ctypes.byref(ctx)) != 0:  # io_setup
        print("io_setup", os.strerror(ctypes.get_errno()))
        break
    made += 1
params = ctypes.create_string_buffer(120)
uring = libc.syscall(425, ctypes.c_long(8), params)  # io_uring_setup
print("aio contexts", made, "io_uring", uring)


def escaped():
    return made > 0 or uring >= 0
