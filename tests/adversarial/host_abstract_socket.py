# Connects to a host daemon's abstract unix socket ("\0name": no file, so no root or mount hides
# it; X11, systemd, containerd and others listen on some): only a network namespace of its own
# keeps a check from them. $NAME is one the test listens on in the grader's namespace.
import socket

reached = []
names = ["$NAME"]
try:  # every abstract name the check can see listed (in its own namespace: none of the host's)
    with open("/proc/net/unix") as fh:
        names += [ln.split()[-1][1:] for ln in fh.read().splitlines()[1:] if ln.split()[-1].startswith("@")]
except OSError as exc:
    print("/proc/net/unix", exc)
for name in names:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(1)
    try:
        s.connect("\0" + name)
        reached.append(name)
    except OSError:
        pass
    finally:
        s.close()
print("reached", reached)


def escaped():
    return bool(reached)
