# The other end of futex_sender: wakes whoever waits on the same page of os.py, a few times,
# and counts the waiters the kernel says it woke. Any: a message crossed between checks.
import ctypes
import mmap
import os
import time

libc = ctypes.CDLL(None, use_errno=True)
FUTEX_WAKE = 1
with open(os.__file__, "rb") as fh:
    page = mmap.mmap(fh.fileno(), 4096, mmap.MAP_SHARED, mmap.PROT_READ)
address = ctypes.c_void_p.from_address(id(page) + 2 * ctypes.sizeof(ctypes.c_void_p)).value  # mmap_object.data
woke = 0
t0 = time.monotonic()
while time.monotonic() - t0 < float("$LOOK_S"):
    woke += max(0, libc.syscall(202, ctypes.c_void_p(address), FUTEX_WAKE, 1000, 0, 0, 0))
    time.sleep(0.05)
print("woke", woke)


def escaped():
    return woke > 0
