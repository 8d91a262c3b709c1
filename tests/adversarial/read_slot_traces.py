# The second of two consecutive checks on one slot: looks for anything the previous check left
# (cgroup counters of its slot, files, abstract sockets, SysV IPC keys, a host name, processes)
# or anything that tells how the slot's previous check went.
import ctypes
import glob
import os
import socket

found = []
libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EC0 + int("$SLOT_KEY")
found += [name for name, call in (("shm", lambda: libc.shmget(KEY, 0, 0)), ("sem", lambda: libc.semget(KEY, 0, 0)),
                                  ("msg", lambda: libc.msgget(KEY, 0))) if call() >= 0]
if os.uname().nodename != "check":
    found.append(f"hostname {os.uname().nodename}")
print("namespaces", os.readlink("/proc/self/ns/ipc"), os.readlink("/proc/self/ns/uts"))
for pattern in ("/sys/fs/cgroup/**/pids.events", "/sys/fs/cgroup/**/memory.failcnt", "/sys/fs/cgroup/**/memory.events",
                "/sys/fs/cgroup/**/memory.max_usage_in_bytes", "/sys/fs/cgroup/**/pids.peak", "/proc/self/net/unix"):
    for path in glob.glob(pattern, recursive=True):
        try:
            text = open(path).read()
        except OSError:
            continue
        if "left-$MARK" in text or "daemon-$MARK" in text or path.startswith("/sys"):
            found.append(path)
for d in ("/tmp", "/dev/shm", "/tmp/w"):
    if os.path.exists(os.path.join(d, "left-$MARK")):
        found.append(d)
for name in ("left-$MARK", "daemon-$MARK"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.connect("\0" + name)
        found.append(name)
    except OSError:
        pass
others = [p for p in os.listdir("/proc") if p.isdigit() and p != str(os.getpid()) and p != "1"]
found += [f"pid {p}" for p in others]
print("found", found)


def escaped():
    return bool(found)
