# Burns CPU in two subprocesses while the check itself sleeps: RLIMIT_CPU (per process) and the
# check's own rusage would not see it; the slot cgroup's accounting does.
import subprocess
import sys

procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
for p in procs:
    p.wait()


def escaped():
    return True
