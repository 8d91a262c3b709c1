# The other end of lock_sender: looks, for a while, for any lock another check holds on the
# files every check shares (a conflicting flock, F_GETLK / F_OFD_GETLK reporting a holder).
import fcntl
import os
import struct
import sys
import time

seen = set()
deadline = time.monotonic() + float("$LOOK_S")
paths = (sys.executable, os.__file__, "/dev/null", "/etc/passwd", "/etc/ld.so.cache", "/")
while time.monotonic() < deadline and not seen:
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except BlockingIOError:
                seen.add((path, "flock"))
            for cmd, name in ((fcntl.F_GETLK, "posix"), (36, "ofd")):
                q = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
                try:
                    got = fcntl.fcntl(fd, cmd, q)
                    if struct.unpack("hhqqi", got)[0] != fcntl.F_UNLCK:
                        seen.add((path, name))
                except OSError:
                    pass
        finally:
            os.close(fd)
    time.sleep(0.02)
print("seen", sorted(seen))


def escaped():
    return bool(seen)
