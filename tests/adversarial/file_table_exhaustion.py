# The host's file table (fs.file-max) is one pool for every process on the machine: a check that
# may open as many files as the grader (often a million per process, times its process cap)
# takes a share that leaves host processes failing with ENFILE. Raises its own soft limit to the
# hard one and opens files until refused (at most 8192 here, to stay polite).
import os
import resource

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
except (OSError, ValueError):
    pass
held = []
while len(held) < 8192:
    try:
        held.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as exc:
        print("refused after", len(held), exc)
        break
print("limit", (soft, hard), "held", len(held))


def escaped():
    return len(held) > 1024
