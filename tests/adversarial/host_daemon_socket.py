# Connects to a host daemon's unix socket (under /run, where dbus, docker and the like listen):
# a network namespace does not cut filesystem sockets. $SOCKET is one the test listens on.
import glob
import socket

reached = []
for path in ["$SOCKET"] + glob.glob("/run/**/*.sock", recursive=True) + glob.glob("/var/run/*.sock"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(1)
    try:
        s.connect(path)
        reached.append(path)
    except OSError as exc:
        print(path, exc)
    finally:
        s.close()


def escaped():
    return bool(reached)
