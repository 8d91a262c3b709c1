# Writes past the output cap without writing on descriptor 1 or 2 themselves: stdout opened
# again by name (/dev/stdout, /proc/self/fd/1: a new open file of the same pipe), a copy made
# with F_DUPFD high up, the terminal (/dev/tty, /dev/console) and a subprocess's own stdout.
# 64 MiB in all, then the tests pass: only a cap on the pipe, whoever writes on it, stops it.
import os
import subprocess
import sys

block = b"z" * (1 << 20)
written = 0
for path in ("/dev/stdout", "/proc/self/fd/1", "/dev/stderr", "/dev/tty", "/dev/console"):
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as exc:
        print(path, exc.strerror, file=sys.__stderr__)
        continue
    for _ in range(12):
        written += os.write(fd, block)
high = os.dup2(1, 900)
for _ in range(12):
    written += os.write(high, block)
subprocess.run([sys.executable, "-c", "import os\nfor _ in range(12): os.write(1, b'q' * (1 << 20))"])
written += 12 << 20


def escaped():
    return True
