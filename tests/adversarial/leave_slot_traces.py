# The first of two consecutive checks on one slot: leaves what it can for the next one. It hits
# the slot's process cap (the pids cgroup counts the refusal, and that counter is never reset)
# and its memory cap, and leaves files, a FIFO, an abstract unix socket, SysV IPC objects, a host
# name and a daemon behind.
import ctypes
import os
import socket
import time

libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EC0 + int("$SLOT_KEY")
made = [name for name, call in (("shm", lambda: libc.shmget(KEY, 4096, 0o1666)), ("sem", lambda: libc.semget(KEY, 1, 0o1666)),
                                ("msg", lambda: libc.msgget(KEY, 0o1666))) if call() >= 0]
try:
    socket.sethostname("left-$MARK")
    made.append("hostname")
except OSError:
    pass
print("made", made, "namespaces", os.readlink("/proc/self/ns/ipc"), os.readlink("/proc/self/ns/uts"), flush=True)

pids = []
for _ in range(200):
    try:
        pid = os.fork()  # until the process cap refuses
    except OSError:
        break
    if pid == 0:
        time.sleep(5)
        os._exit(0)
    pids.append(pid)
for pid in pids:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
hog = os.fork()
if hog == 0:  # the biggest process of the slot: the one the memory cgroup's OOM killer picks
    try:
        block = bytearray(1 << 30)
    except MemoryError:
        pass
    os._exit(0)
os.waitpid(hog, 0)
for d in ("/tmp", "/dev/shm", "/tmp/w"):
    try:
        with open(os.path.join(d, "left-$MARK"), "w") as fh:
            fh.write("$MARK")
    except OSError:
        pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0left-$MARK")
if os.fork() == 0:
    os.setsid()
    s2 = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s2.bind("\0daemon-$MARK")
    except OSError:
        pass
    time.sleep(30)
    os._exit(0)
print("forked", len(pids), flush=True)


def escaped():
    return False
