# Classic fork bomb: every process forks forever. The pids cgroup and RLIMIT_NPROC cap it; the
# CPU limit (all processes counted) ends it; the pid namespace takes every process down.
import os

while True:
    try:
        os.fork()
    except OSError:
        pass


def escaped():
    return True
