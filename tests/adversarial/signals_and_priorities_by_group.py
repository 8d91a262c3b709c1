# Calls that name processes by group, user or session rather than by pid: the kernel resolves
# them outside the pid namespace (a process group or a uid is not a namespace's). A check that
# shared the worker's process group or uid would renice it (setpriority PRIO_PGRP/PRIO_USER),
# signal it (kill(0, sig), killpg), or move its CPUs. The test compares the grader's and the
# workers' priority and liveness before and after.
import ctypes
import os
import signal

libc = ctypes.CDLL(None, use_errno=True)
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
done = []
for which, who in ((1, 0), (2, 0), (2, 65534), (1, 1), (2, os.getuid())):
    ret = libc.setpriority(which, who, 19)
    done.append(("setpriority", which, who, ret, os.strerror(ctypes.get_errno()) if ret else ""))
for pgid in (0, 1, os.getpgrp()):
    try:
        os.killpg(pgid, signal.SIGUSR1)
        done.append(("killpg", pgid, "sent"))
    except OSError as exc:
        done.append(("killpg", pgid, exc.strerror))
for sig in (signal.SIGHUP, signal.SIGUSR1):
    try:
        os.kill(0, sig)
        done.append(("kill 0", sig, "sent"))
    except OSError as exc:
        done.append(("kill 0", sig, exc.strerror))
try:
    os.sched_setaffinity(0, {0})
except OSError as exc:
    print("affinity", exc)
print("session", os.getsid(0), "group", os.getpgrp(), "pid", os.getpid())
print(done)


def escaped():
    return os.getsid(0) != os.getpid() or os.getpgrp() != os.getpid()  # a session of its own
