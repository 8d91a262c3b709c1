# The result channel is a unix socket: descriptors can travel on it. The check sends a socket
# bound to an abstract name (and its other descriptors) to the worker on every descriptor it
# has, then ends: held in the worker's receive queue, the socket would outlive the check and
# answer the next check of the slot (read_slot_traces looks for it), and a worker that took the
# descriptors in would hold whatever the check chose.
import array
import os
import socket

s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0left-$MARK")
fds = array.array("i", [s.fileno()])
sent = []
for fd in range(3, 1024):
    if fd == s.fileno():
        continue
    try:
        carrier = socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    try:
        carrier.sendmsg([b"\n"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        sent.append(fd)
    except OSError:
        pass
    finally:
        carrier.close()
print("sent on", sent, flush=True)


def escaped():
    return False
