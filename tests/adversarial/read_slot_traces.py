# The second of two consecutive checks on one slot: looks for anything the previous check left
# (cgroup counters of its slot, files, abstract sockets, processes) or anything that tells how
# the slot's previous check went.
import glob
import os
import socket

found = []
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
