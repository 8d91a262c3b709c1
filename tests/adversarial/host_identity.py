# What a check can learn of the machine and the grader running it without opening anything
# outside its root: the host's name (uname), the grader's cgroup paths in /proc/self/cgroup
# (they carry the grader's pid and the slot's name), and the mounts' sources in mountinfo.
# $GRADER_PID and $HOSTNAME are the grader's; any of them seen is a leak.
import os

seen = []
if os.uname().nodename == "$HOSTNAME":
    seen.append("hostname")
for path in ("/proc/self/cgroup", "/proc/self/mountinfo", "/proc/self/mounts", "/proc/self/environ",
             "/proc/self/cmdline", "/proc/self/stat", "/proc/self/sched"):
    try:
        with open(path) as fh:
            text = fh.read()
    except OSError:
        continue
    for word in ("$GRADER_PID", "rlvr-grade/", "slot", "/var/tmp/", "$HOSTNAME"):
        if word in text.replace("rlvr-slot", ""):  # the check's own process name is no leak
            seen.append(f"{path}: {word}")
print("seen", seen)


def escaped():
    return bool(seen)
