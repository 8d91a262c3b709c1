# What a check can set on the descriptions it was handed (stdin, stdout, stderr, the result
# channel): status flags (O_NONBLOCK, O_APPEND) and socket options. If the worker handed the
# same open descriptions to every check of a slot, the next one (descriptor_flags_receiver)
# would read them: a message across checks, and a worker whose reads change behaviour.
import fcntl
import os
import socket

set_on = []
for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK | os.O_APPEND)
        set_on.append(fd)
    except OSError:
        pass
    try:
        s = socket.socket(fileno=os.dup(fd))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096 + 64 * len("$MARK"))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.close()
    except OSError:
        pass
print("set on", set_on, flush=True)


def escaped():
    return False
