# The other of two concurrent checks (see ipc_sender): looks for what the sender left in the
# places processes of one host share without files.
import ctypes
import os
import socket
import time

libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EC0 + int("$SLOT_KEY")
seen = []
deadline = time.monotonic() + float("$LOOK_S")
while not seen and time.monotonic() < deadline:
    for name, call in (("shm", lambda: libc.shmget(KEY, 0, 0)), ("sem", lambda: libc.semget(KEY, 0, 0)),
                       ("msg", lambda: libc.msgget(KEY, 0))):
        if call() >= 0:
            seen.append(name)
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect("\0rlvr-ipc-$MARK")
        seen.append("abstract")
    except OSError:
        pass
    finally:
        c.close()
    for path in ("/dev/shm/rlvr-ipc-$MARK", "/tmp/rlvr-ipc-$MARK", "/tmp/rlvr-ipc-$MARK.fifo"):
        if os.path.exists(path):
            seen.append(path)
    time.sleep(0.05)
print("seen", seen)


def escaped():
    return bool(seen)
