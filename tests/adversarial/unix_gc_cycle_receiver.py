# The next check in the slot: is an abstract name the previous check bound still taken
# (unix_gc_cycle_sender), or listed in the namespace's /proc/self/net/unix?
import socket
import time

seen = []
time.sleep(float("$LOOK_S"))
for i in range(4):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.bind(f"\0rlvr-gc-$MARK-{i}")
    except OSError as exc:
        seen.append((i, exc.strerror))
    s.close()
with open("/proc/self/net/unix") as fh:
    seen += [line.split()[-1] for line in fh if "rlvr-gc-" in line]
print("seen", seen, flush=True)


def escaped():
    return bool(seen)
