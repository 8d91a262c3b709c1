# Kernel memory a check's pages do not show: 64 KiB extended attributes on files of its own
# tmpfs, then directories by the hundred thousand (an inode and a dentry each). Unless the
# check's memory cgroup is charged for them, it holds far more than its memory cap.
import os

val = os.urandom(60000)
xattr_bytes = dirs = 0
try:
    for i in range(8000):
        path = f"/tmp/x{i}"
        open(path, "w").close()
        for j in range(4):
            os.setxattr(path, f"user.k{j}", val)
            xattr_bytes += len(val)
except OSError as exc:
    print("xattrs stopped:", exc)
try:
    for i in range(1_500_000):
        os.mkdir(f"/dev/shm/d{i}")
        dirs += 1
except OSError as exc:
    print("directories stopped:", exc)
print("xattr MiB", xattr_bytes >> 20, "directories", dirs)


def escaped():
    return xattr_bytes >= (1800 << 20) or dirs >= 1_500_000
