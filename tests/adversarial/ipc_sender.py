# One of two concurrent checks (ipc_receiver is the other): leaves a message in every shared
# place two processes of one host can meet in without files: SysV shared memory, semaphore and
# message queue keys, an abstract unix socket, a POSIX shared memory name, a named socket and
# FIFO in /tmp; then holds them $HOLD_S seconds.
import ctypes
import os
import socket
import time

libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EC0 + int("$SLOT_KEY")
made = []
if libc.shmget(KEY, 4096, 0o1666) >= 0:
    made.append("shm")
if libc.semget(KEY, 1, 0o1666) >= 0:
    made.append("sem")
if libc.msgget(KEY, 0o1666) >= 0:
    made.append("msg")
a = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    a.bind("\0rlvr-ipc-$MARK")
    a.listen(4)
    made.append("abstract")
except OSError as exc:
    print("abstract", exc)
for path in ("/dev/shm/rlvr-ipc-$MARK", "/tmp/rlvr-ipc-$MARK"):
    try:
        with open(path, "w") as fh:
            fh.write("$MARK")
        made.append(path)
    except OSError:
        pass
try:
    os.mkfifo("/tmp/rlvr-ipc-$MARK.fifo")
    made.append("fifo")
except OSError:
    pass
print("made", made, flush=True)
time.sleep(float("$HOLD_S"))


def escaped():
    return False
