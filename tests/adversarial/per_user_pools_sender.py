# Fills the pools the kernel keeps per user (not per process or cgroup) while another check
# runs: pipe buffer pages (fs.pipe-user-pages-soft: past it every new pipe of that user gets
# one page) and queued signals (RLIMIT_SIGPENDING counts every pending signal of the user).
# Concurrent checks of other slots run as other users: per_user_pools_receiver sees nothing.
import os
import signal
import time

children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        held = []
        try:
            for _ in range(900):
                r, w = os.pipe()
                os.close(w)
                held.append(r)
        except OSError:
            pass
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN + 1])
        queued = 0
        try:
            for _ in range(40000):
                os.kill(os.getpid(), signal.SIGRTMIN + 1)
                queued += 1
        except OSError:
            pass
        print("child held", len(held), "pipes, queued", queued, flush=True)
        time.sleep(float("$HOLD_S"))
        os._exit(0)
    children.append(pid)
time.sleep(float("$HOLD_S"))
for pid in children:
    os.waitpid(pid, 0)


def escaped():
    return False
