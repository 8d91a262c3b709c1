# Threads, not processes: every thread is a task of the machine's pid space (kernel.threads-max,
# pid_max). The process cap must count them: a check with `processes` 32 starts at most that
# many tasks, threads and processes together, and the host's pid space is not drained.
import os
import threading
import time

stop = threading.Event()
started = 0
try:
    for _ in range(5000):
        t = threading.Thread(target=stop.wait, daemon=True)
        t.start()
        started += 1
except RuntimeError as exc:
    print("refused:", exc)
kids = 0
for _ in range(64):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(2)
        os._exit(0)
    kids += 1
print("threads", started, "processes", kids, flush=True)
stop.set()


def escaped():
    return started + kids >= 64
