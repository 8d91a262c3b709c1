# Out-of-band data (MSG_OOB, which unix stream sockets carry since Linux 5.15) and a half-close
# on the result channel, from the check's own process and from a child: the worker's reader
# must neither stall nor spin nor stop reading early, and the check still fails (tampering or
# its own failing test), with the worker alive for the next check.
import os
import socket

sent = []
for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
    try:
        if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
            continue
    except OSError:
        continue
    s = socket.socket(fileno=os.dup(fd))
    for who in ("self", "child"):
        if who == "child":
            pid = os.fork()
            if pid:
                os.waitpid(pid, 0)
                continue
        try:
            s.send(b"x" * 7, socket.MSG_OOB)
            sent.append((fd, who))
        except OSError as exc:
            print(fd, who, exc.strerror, flush=True)
        if who == "child":
            os._exit(0)
    s.detach()
print("sent", sent, flush=True)


def escaped():
    return False
