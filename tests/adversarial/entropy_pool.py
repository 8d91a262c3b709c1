# The kernel's entropy pool is the machine's: crediting, clearing or draining it (the
# RNDADDTOENTCNT, RNDZAPENTCNT, RNDCLEARPOOL, RNDADDENTROPY ioctls; root-only, but asked of a
# descriptor the check holds), or reading how much is left (RNDGETENTCNT,
# /proc/sys/kernel/random) would let a check move or watch host state. Writing to /dev/random
# only mixes bytes in, credits nothing, and reading never blocks on this kernel.
import ctypes
import fcntl
import os

took = []
fd = os.open("/dev/random", os.O_RDWR)
buf = ctypes.create_string_buffer(64)
for name, req in (("RNDGETENTCNT", 0x80045200), ("RNDADDTOENTCNT", 0x40045201), ("RNDZAPENTCNT", 0x5204),
                  ("RNDCLEARPOOL", 0x5206), ("RNDADDENTROPY", 0x40085203), ("RNDRESEEDCRNG", 0x5207)):
    try:
        fcntl.ioctl(fd, req, buf)
        took.append(name)
    except OSError as exc:
        print(name, exc.strerror)
for path in ("/proc/sys/kernel/random/entropy_avail", "/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/random/uuid"):
    try:
        print(path, open(path).read().strip())
        took.append(path)
    except OSError as exc:
        print(path, exc.strerror)
os.write(fd, os.urandom(64))
print("read", len(os.read(fd, 64)), "took", took)


def escaped():
    return bool(took)
