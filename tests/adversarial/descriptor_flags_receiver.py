# The next check of the slot: do its descriptors carry flags or socket options it did not set
# (descriptor_flags_sender)?
import fcntl
import os
import socket

seen = []
for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        continue
    if flags & (os.O_NONBLOCK | os.O_APPEND) and fd in (0, 1, 2):
        seen.append((fd, hex(flags)))
    try:
        s = socket.socket(fileno=os.dup(fd))
        size = s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
        s.close()
        if size < 65536:
            seen.append((fd, "SO_SNDBUF", size))
    except OSError:
        pass
print("seen", seen, flush=True)


def escaped():
    return bool(seen)
