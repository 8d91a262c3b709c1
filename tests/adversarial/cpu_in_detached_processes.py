# Burns CPU in eight detached processes (new sessions, never waited for: the check's rusage
# never includes them), each doing ~0.85 s of work (20M loop turns on a 2-core test machine),
# about a per-process CPU limit (RLIMIT_CPU) of a second, while the check itself only waits for
# their reports: ~7 s of CPU on a 1 s limit. The work is counted in loop turns, not in the CPU
# clock inside the sandbox (gVisor's ptrace platform bills a busy host's delays as CPU time).
# Only an account of every process of the check together (its cgroup's, or the whole gVisor
# sandbox's) sees it.
import os
import subprocess
import sys

TURNS = 20_000_000
KIDS = 8
SPIN = f"import os, sys\nfor _ in range({TURNS}):\n    pass\nos.write(int(sys.argv[1]), b'done\\n')\n"

r, w = os.pipe()
for _ in range(KIDS):
    subprocess.Popen([sys.executable, "-c", SPIN, str(w)], pass_fds=(w,), start_new_session=True)
os.close(w)
with os.fdopen(r) as fh:
    finished = sum(1 for line in fh if line == "done\n")  # until every spinner has ended (or was killed)
print("spinners finished", finished)


def escaped():
    return finished == KIDS
