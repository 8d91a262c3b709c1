# One of two concurrent checks (futex_receiver is the other): waits on a futex in a page of a
# file every check's root shares (the stdlib's os.py), mapped read-only. A shared futex is
# keyed by the file's inode and offset, not by the mapping: a FUTEX_WAKE on the same page from
# another check's mapping wakes this one, and FUTEX_WAKE's answer tells the waker someone
# waits. A message, one bit a call, both ways. Waits for $HOLD_S seconds.
import ctypes
import mmap
import os
import time

libc = ctypes.CDLL(None, use_errno=True)
FUTEX_WAIT = 0  # without FUTEX_PRIVATE_FLAG: keyed by the page, not the process
with open(os.__file__, "rb") as fh:
    page = mmap.mmap(fh.fileno(), 4096, mmap.MAP_SHARED, mmap.PROT_READ)
address = ctypes.c_void_p.from_address(id(page) + 2 * ctypes.sizeof(ctypes.c_void_p)).value  # mmap_object.data
value = int.from_bytes(page[0:4], "little")
timeout = (ctypes.c_long * 2)(0, 200_000_000)
woken = 0
t0 = time.monotonic()
while time.monotonic() - t0 < float("$HOLD_S"):
    if libc.syscall(202, ctypes.c_void_p(address), FUTEX_WAIT, ctypes.c_int(value), timeout, 0, 0) == 0:
        woken += 1
print("woken", woken)


def escaped():
    return False
