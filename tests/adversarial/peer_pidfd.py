# Asks every unix socket it holds who is at the other end: SO_PEERCRED names the peer's pid
# (0 when outside the check's pid namespace) and SO_PEERPIDFD (Linux 6.5) hands a pidfd of
# the peer's process, the worker for the result channel, across the namespace. With one, a
# signal (pidfd_send_signal is allowed for the check's own processes) could stop the worker
# that enforces the check's wall and CPU limits, or kill it.
import os
import signal
import socket
import struct

reached = []
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    try:
        if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
            continue
    except OSError:
        continue
    s = socket.socket(fileno=os.dup(fd))
    try:
        pid, uid, gid = struct.unpack("iII", s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        print("fd", fd, "peer pid", pid, "uid", uid, "me", os.getuid(), flush=True)
    except OSError as exc:
        print("fd", fd, "SO_PEERCRED", exc.strerror, flush=True)
    try:
        pidfd = s.getsockopt(socket.SOL_SOCKET, 77)  # SO_PEERPIDFD
        print("fd", fd, "SO_PEERPIDFD", pidfd, flush=True)
        try:
            with open(f"/proc/self/fdinfo/{pidfd}") as fh:
                print(fh.read(), flush=True)
        except OSError:
            pass
        try:
            signal.pidfd_send_signal(pidfd, 0)
            reached.append(fd)
        except OSError as exc:
            print("signal 0:", exc.strerror, flush=True)
    except OSError as exc:
        print("fd", fd, "SO_PEERPIDFD", exc.strerror, flush=True)
    s.close()
print("reached", reached, flush=True)


def escaped():
    return bool(reached)
