# /tmp and /dev/shm are both the check's to write: filled one after the other (1 MiB files in
# /tmp until it refuses, then /dev/shm the same way, then a file grown by ftruncate and written
# through a mapping), the check must not hold more than its disk cap ($DISK_MB MiB) in all.
import mmap
import os

MB = 1 << 20
held = {}
for where in ("/tmp", "/dev/shm"):
    n = 0
    try:
        for i in range(256):
            with open(f"{where}/fill-{i}", "wb") as fh:
                fh.write(b"\1" * MB)
            n += 1
    except OSError as exc:
        print(where, "stopped:", exc.strerror, flush=True)
    held[where] = n
try:
    fd = os.open("/dev/shm/mapped", os.O_RDWR | os.O_CREAT, 0o600)
    os.ftruncate(fd, 4 * MB)
    with mmap.mmap(fd, 4 * MB) as m:
        for off in range(0, 4 * MB, 4096):
            os.pwrite(fd, b"\1", off)  # a write, not a store: ENOSPC rather than SIGBUS when full
        held["mapped"] = 4
except OSError as exc:
    print("mapped stopped:", exc.strerror, flush=True)
    held["mapped"] = 0
total = sum(held.values())
print("held", held, "MiB in all", total, flush=True)


def escaped():
    return total > int("$DISK_MB")
