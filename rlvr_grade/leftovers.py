"""What a SIGKILLed grader leaves behind (a `.part` file beside its output, its slots' cgroups)
carries its pid in the name; a later run removes the ones whose pid no longer runs."""

from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """Whether `pid` is a running process. A zombie is not (it has exited; its parent just has
    not reaped it yet). Anything unclear counts as alive: a leftover is harmless, removing a
    live run's files is not."""
    if pid <= 0:
        return True
    if pid == os.getpid():
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        # No /proc at all (a stripped container) says nothing about the pid.
        return not os.path.isdir("/proc/self")
    except (OSError, IndexError):
        return True
    return state not in (b"Z", b"X")
