# Calls that reach the whole host from inside a check: sync (flushes every filesystem), kernel
# keyrings, SysV message queues and POSIX ones, mlock (locks host memory), perf and bpf.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
worked = []
calls = {
    "sync": (162,),
    "syncfs": (306, 0),
    "add_key": (248, ctypes.c_char_p(b"user"), ctypes.c_char_p(b"rlvr"), ctypes.c_char_p(b"x"), 1, -3),
    "mlock": (149, ctypes.c_void_p(ctypes.addressof(ctypes.create_string_buffer(4096))), 4096),
    "mq_open": (240, ctypes.c_char_p(b"/rlvr"), 0o100, 0o600, 0),
    "membarrier": (324, 0, 0),
    "mincore_none": (27, 0, 0, 0),
    "setns": (308, 0, 0),
    "open_by_handle_at": (304, -100, 0, 0),
}
for name, (nr, *args) in calls.items():
    ret = libc.syscall(nr, *[a if not isinstance(a, int) else ctypes.c_long(a) for a in args])
    err = ctypes.get_errno()
    print(name, ret, os.strerror(err))
    if ret >= 0 or err not in (1, 38):  # EPERM / ENOSYS: refused
        worked.append(name)


def escaped():
    return bool(worked)
