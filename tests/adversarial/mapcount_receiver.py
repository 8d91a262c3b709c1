# The other end of mapcount_sender: maps the same page of the same file, touches it, and reads
# its own /proc/self/smaps: Shared_Clean counts the page when another process maps it too —
# none of its own does, so another check does. A message crossed between checks.
import ctypes
import mmap
import os
import time

PAGE = 3
with open(os.path.join(os.path.dirname(os.__file__), "pydoc_data", "topics.py"), "rb") as fh:
    page = mmap.mmap(fh.fileno(), 4096, mmap.MAP_SHARED, mmap.PROT_READ, offset=PAGE * 4096)
page[0]  # fault it in
start = ctypes.c_void_p.from_address(id(page) + 2 * ctypes.sizeof(ctypes.c_void_p)).value  # mmap_object.data


def shared_kb():
    try:
        with open("/proc/self/smaps") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return 0
    inside = False
    for line in lines:
        head = line.split()[0] if line.split() else ""
        if "-" in head and ":" not in head:
            lo = int(head.split("-")[0], 16)
            inside = lo == start
        elif inside and head == "Shared_Clean:":
            return int(line.split()[1])
    return 0


seen = 0
t0 = time.monotonic()
while time.monotonic() - t0 < float("$LOOK_S"):
    seen = max(seen, shared_kb())
    time.sleep(0.05)
print("shared kB", seen)


def escaped():
    return seen > 0
