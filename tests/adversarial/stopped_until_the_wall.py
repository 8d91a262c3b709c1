# Processes that stop instead of running: every process of the check is SIGSTOPped (kill(-1)),
# children stop themselves and the main one waits for them. No CPU is spent, so only the wall
# limit can end it, and a stopped process must still be killed with the rest (nothing left).
import os
import signal
import time

kids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:  # a grandchild in a session of its own, stopped too
            os.setsid()
            os.kill(os.getpid(), signal.SIGSTOP)
            time.sleep(3600)
            os._exit(0)
        os.kill(os.getpid(), signal.SIGSTOP)
        time.sleep(3600)
        os._exit(0)
    kids.append(pid)
time.sleep(0.2)
os.kill(-1, signal.SIGSTOP)  # every other process of the namespace
os.kill(-1, signal.SIGTSTP)
print("stopped", len(kids), flush=True)
for pid in kids:
    os.waitpid(pid, 0)  # never returns: they are stopped, not dead


def escaped():
    return True
