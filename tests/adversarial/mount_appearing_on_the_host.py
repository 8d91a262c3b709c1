# Mount propagation: while the check runs, the host mounts a filesystem (a USB disk, an NFS
# share of datasets, here a tmpfs the test mounts) inside a directory the root shows. With
# shared propagation the new mount would appear inside the running check, answers and all.
# The check watches the place for LOOK_S seconds.
import os
import sys
import time

here = os.path.dirname(sys.modules["rlvr_harness"].__file__)
place = os.path.join(here, "$NAME")
seen = []
t0 = time.monotonic()
while time.monotonic() - t0 < float("$LOOK_S"):
    try:
        seen = os.listdir(place)
    except OSError:
        seen = []
    if seen:
        break
    time.sleep(0.05)
mounts = [line.split()[4] for line in open("/proc/self/mountinfo") if "$NAME" in line]
print("seen", seen, "mounts", mounts)


def escaped():
    return bool(seen) or bool(mounts)
