"""What a SIGKILLed grader leaves behind (a `.part` file beside its output, a filter run's work
folder, its slots' cgroups) carries its pid in the name; a later run removes the ones whose
pid no longer runs."""

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


def remove_abandoned(path: str, pid: int, folder: bool = False) -> bool:
    """Remove `path`, a regular file (or with `folder`, a folder and what is in it) that run
    `pid` left: only once that pid no longer runs and nobody holds a lock on it (a live run
    holds one: a pid from another pid namespace means nothing here), never through a symlink,
    and only if it is still the entry that was locked. Whether it was removed."""
    import fcntl
    import stat

    if pid_alive(pid):
        return False
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_DIRECTORY if folder else os.O_NONBLOCK)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False  # gone, a symlink, or not what `folder` says
    try:
        st = os.fstat(fd)
        if not folder and not stat.S_ISREG(st.st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a live run: OSError
        if os.lstat(path).st_ino != st.st_ino:
            return False
        if folder:
            import shutil

            shutil.rmtree(path)
        else:
            os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
