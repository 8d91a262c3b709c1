# Holds 384 MiB across six forked processes, 64 MiB each, all at once: every process stays
# under a 128 MiB per-process address-space cap (RLIMIT_AS), the check as a whole is three
# times over it. Unless the memory cap covers every process of the check together (a cgroup
# around the whole check, or around the whole gVisor sandbox), it keeps that from the host.
import os
import time

EACH_MIB = 64
KIDS = 6

r, w = os.pipe()
for _ in range(KIDS):
    if os.fork() == 0:
        try:
            block = bytearray(EACH_MIB << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1  # resident, not only reserved
            os.write(w, b"%d\n" % EACH_MIB)
        except MemoryError:
            os.write(w, b"0\n")
        time.sleep(3)  # held until every other process has its share too
        os._exit(0)
os.close(w)
with os.fdopen(r) as fh:
    held = sum(int(line) for line in fh)  # until every process has exited (or was killed)
print("held MiB", held)


def escaped():
    return held >= EACH_MIB * KIDS
