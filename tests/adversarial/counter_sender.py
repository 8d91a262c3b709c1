# One of two concurrent checks (counter_receiver is the other): moves kernel-wide counters
# that any process can read for $HOLD_S seconds, then stays idle as long: the autogroup
# sequence (a new one per setsid, its number in /proc/self/autogroup), the inode numbers of new
# pipes and sockets (one counter for the machine), and the machine's process count (sysinfo).
import os
import time

HOLD = float("$HOLD_S")
sessions = pipes = 0
kids = []
for _ in range(24):  # held for the process count
    pid = os.fork()
    if pid == 0:
        time.sleep(HOLD)
        os._exit(0)
    kids.append(pid)
t0 = time.monotonic()
while time.monotonic() - t0 < HOLD:
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    sessions += 1
    for _ in range(200):
        r, w = os.pipe()
        os.close(r)
        os.close(w)
        pipes += 1
for pid in kids:
    os.waitpid(pid, 0)
time.sleep(HOLD)  # idle: the receiver's second window
print("sessions", sessions, "pipes", pipes)


def escaped():
    return False
