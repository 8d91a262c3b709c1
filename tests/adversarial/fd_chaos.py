# Closes every descriptor, then dups garbage over the low ones. The result channel survives (the
# seccomp filter refuses to close it) and the harness reports this check's failure there; without
# the filter the channel is gone and the check cannot pass either.
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
    return False
