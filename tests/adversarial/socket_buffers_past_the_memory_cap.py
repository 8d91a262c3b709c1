# Holds 400 MiB in the receive queues of unix socket pairs, across four processes (each may
# hold 1024 descriptors): kernel memory, not the check's pages. Unless socket buffers are
# charged to the check's memory cgroup, it keeps three times its memory cap from the host.
import os
import socket
import time

GOAL_MIB = 400


def fill(goal):
    pairs, queued, chunk = [], 0, b"x" * 65536
    try:
        while queued < goal:
            a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            a.setblocking(False)
            try:
                while True:
                    queued += a.send(chunk)
            except BlockingIOError:
                pass
            pairs.append((a, b))
    except OSError as exc:
        print("stopped:", exc)
    return pairs, queued


r, w = os.pipe()
kids = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        held, q = fill((GOAL_MIB // 4) << 20)
        os.write(w, b"%d\n" % (q >> 20))
        time.sleep(3)
        os._exit(0)
    kids.append(pid)
held, q = fill((GOAL_MIB // 4) << 20)
total = q >> 20
for _ in kids:
    line = b""
    while not line.endswith(b"\n"):
        line += os.read(r, 1)
    total += int(line)
print("queued MiB", total)


def escaped():
    return total >= GOAL_MIB - 8
