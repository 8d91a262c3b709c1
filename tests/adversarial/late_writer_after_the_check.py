# The first of two consecutive checks on one slot: it passes quickly, leaving a grandchild in a
# session of its own (double fork) that holds copies of its stdout, stderr and every other
# descriptor it had, and keeps writing a marker after the check has ended. If any process of a
# check outlived it, the next check of the slot (or the worker's next read) would carry it.
import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
        copies = []
        for fd in fds:
            try:
                copies.append(os.dup(fd))
            except OSError:
                pass
        t0 = time.monotonic()
        while time.monotonic() - t0 < 6:
            time.sleep(0.1)
            for fd in fds + copies:
                try:
                    os.write(fd, b"late-$MARK\n")
                except OSError:
                    pass
        os._exit(0)
    os._exit(0)
os.wait()
print("left a writer", flush=True)


def escaped():
    return False
