# Opens the host's devices: ptys (the host's pty pool, /dev/ptmx), the kernel log, the console
# and terminals, raw memory and disks, fuse, tun. A check's /dev holds null, zero, full, random,
# urandom and nothing else.
import glob
import os

opened = []
names = ["/dev/ptmx", "/dev/pts/ptmx", "/dev/kmsg", "/dev/tty", "/dev/console", "/dev/tty0", "/dev/mem",
         "/dev/port", "/dev/fuse", "/dev/net/tun", "/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/loop0", "/dev/rtc0",
         "/dev/cpu_dma_latency", "/dev/snapshot", "/dev/vhost-net"]
for path in names + glob.glob("/dev/pts/*"):
    for flags in (os.O_RDWR | os.O_NOCTTY, os.O_RDONLY | os.O_NOCTTY):
        try:
            fd = os.open(path, flags | os.O_NONBLOCK)
            os.close(fd)
            opened.append(path)
            break
        except OSError as exc:
            last = exc
extra = sorted(set(os.listdir("/dev")) - {"null", "zero", "full", "random", "urandom", "fd", "stdin", "stdout",
                                           "stderr", "shm"})
print("opened", opened, "extra", extra)


def escaped():
    return bool(opened) or bool(extra)
