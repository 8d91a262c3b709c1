# Signals its parent, the grader, the worker (by their host pids) and every process it can.
import os
import signal

hits = []
for pid in (int("$GRADER_PID"), int("$ZYGOTE_PID"), os.getppid()):
    if pid <= 0:
        continue
    try:
        os.kill(pid, signal.SIGKILL)
        hits.append(pid)
    except OSError as exc:
        print("kill", pid, exc)
try:
    os.kill(-1, signal.SIGKILL)  # every process the check may signal (only its own namespace)
except OSError as exc:
    print("kill -1", exc)


def escaped():
    return bool(hits)
