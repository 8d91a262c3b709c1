# What the check's process holds when its code starts: every descriptor but stdin (/dev/null),
# stdout and stderr (pipes) and the one result channel (a socket) is something the grader or
# the worker opened and forgot: a lock on the farm, the template's namespace, a pidfd, a
# listening socket, a directory outside the root (openat from it leads out).
import os

fds = sorted(int(n) for n in os.listdir("/proc/self/fd"))
listing = os.listdir("/proc/self/fd")  # the listing's own descriptor is gone by now
extra, sockets = [], 0
for fd in fds:
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        continue  # the listing's own descriptor, closed
    print(fd, target)
    if fd == 0 and target == "/dev/null" or fd in (1, 2) and target.startswith("pipe:["):
        continue
    if target.startswith("socket:[") and sockets == 0:
        sockets += 1  # the result channel
        continue
    extra.append((fd, target))
print("extra", extra)


def escaped():
    return bool(extra)
