# One of two concurrent checks (shmem_receiver is the other): holds 12 MiB in files of its own
# /tmp (1 MiB each: under any file-size cap) for $HOLD_S seconds, then nothing for as long. The check's /tmp is a tmpfs of its own,
# charged to its slot's memory cgroup, yet its pages are shmem pages of the one kernel, which
# sysinfo's `sharedram` counts for the whole machine.
import os
import time

HOLD = float("$HOLD_S")
paths = [f"/tmp/rtk-shmem-{i}" for i in range(12)]
for path in paths:
    with open(path, "wb") as fh:
        fh.write(os.urandom(1 << 20))
time.sleep(HOLD)
for path in paths:
    os.unlink(path)
time.sleep(HOLD)
print("held 12 MiB")


def escaped():
    return False
