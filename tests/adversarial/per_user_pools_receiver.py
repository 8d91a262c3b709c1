# While per_user_pools_sender fills its user's pools: are this check's new pipes full size,
# and can it queue a real-time signal? Either answer moving is a bit from the other check.
import fcntl
import os
import signal
import time

seen = []
time.sleep(float("$LOOK_S"))
r, w = os.pipe()
size = fcntl.fcntl(w, 1032)  # F_GETPIPE_SZ
if size < 65536:
    seen.append(("pipe size", size))
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN + 2])
try:
    for _ in range(16):
        os.kill(os.getpid(), signal.SIGRTMIN + 2)
except OSError as exc:
    seen.append(("signal queue", exc.strerror))
print("seen", seen, flush=True)


def escaped():
    return bool(seen)
