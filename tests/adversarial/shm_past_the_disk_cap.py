# /dev/shm is a tmpfs of its own: written past the check's disk cap (disk_mb) from several
# processes and files, and through mmap of a file there (no write() call to fail).
import mmap
import os

MB = 1 << 20
total = 0
stopped = []
for i in range(6):
    try:
        fd = os.open(f"/dev/shm/f{i}", os.O_RDWR | os.O_CREAT, 0o600)
        os.ftruncate(fd, 16 * MB)
        m = mmap.mmap(fd, 16 * MB)
        for off in range(0, 16 * MB, 4096):
            m[off] = 1
        total += 16
    except (OSError, ValueError) as exc:
        stopped.append(repr(exc))
        break
print("mapped", total, "MiB", stopped, flush=True)
print("wrote everything" if total >= 96 else "capped", flush=True)


def escaped():
    return total >= 96
