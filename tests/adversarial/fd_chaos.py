# Closes every descriptor, then dups garbage over the low ones: the result channel is gone,
# so the harness cannot report and the check cannot pass.
import os

for fd in range(0, 4096):
    try:
        os.close(fd)
    except OSError:
        pass
r, w = os.pipe()
for fd in range(0, 64):
    try:
        os.dup2(w, fd)
    except OSError:
        pass


def escaped():
    return True
