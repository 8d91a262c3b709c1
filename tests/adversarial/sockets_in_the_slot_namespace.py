# Unix sockets the check did not make but can see: every socket of its network namespace is
# listed in /proc/self/net/unix (the slot's, shared with the worker and with earlier checks of
# the slot). It connects to each named or abstract one that is not its own, and tries the
# worker's end of the result channel by inode through /proc.
import os
import socket

mine = set()
for fd in os.listdir("/proc/self/fd"):
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        continue
    if target.startswith("socket:["):
        mine.add(target[8:-1])
reached, seen = [], []
with open("/proc/self/net/unix") as fh:
    for line in fh.read().splitlines()[1:]:
        fields = line.split()
        inode, path = fields[6], fields[7] if len(fields) > 7 else ""
        seen.append((inode, path))
        if inode in mine or not path:
            continue
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_SEQPACKET):
            s = socket.socket(socket.AF_UNIX, kind)
            try:
                s.connect("\0" + path[1:] if path.startswith("@") else path)
                reached.append(path)
            except OSError:
                pass
            finally:
                s.close()
print("seen", seen, "mine", sorted(mine))
print("reached", reached)


def escaped():
    return bool(reached)
