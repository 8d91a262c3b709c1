# What a check can learn of the machine and the grader running it without opening anything
# outside its root: the host's name (uname), the grader's cgroup paths in /proc/self/cgroup
# (they carry the grader's pid and the slot's name), and the mounts' sources in mountinfo.
# $GRADER_PID and $HOSTNAME are the grader's; any of them seen is a leak.
import os
import re

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
    # stat and sched are mostly counters (faults, switches, run times), which may read as the
    # grader's pid by chance: only their ids are looked at (stat: pid, comm, state, ppid, pgrp,
    # session; sched: its "comm (pid, #threads)" line).
    # mountinfo's first fields are the kernel's mount ids and device numbers, and options carry
    # sizes (a mount id of 417 is no leak of a grader whose pid is 417, as on a fresh CI
    # container): of a mount only its root, mount point, type and source are looked at.
    if path == "/proc/self/mountinfo":
        text = "\n".join(" ".join(f.split()[3:5] + f.split(" - ", 1)[-1].split()[:2]) for f in text.splitlines())
    elif path == "/proc/self/mounts":
        text = "\n".join(" ".join(f.split()[:3]) for f in text.splitlines())
    elif path == "/proc/self/stat":
        text = " ".join(text[: text.rindex(")") + 1].split() + text[text.rindex(")") + 1:].split()[:4])
    elif path == "/proc/self/sched":
        text = text.split("\n", 1)[0]
    if re.search(r"(?<![0-9.])$GRADER_PID(?![0-9])", text):  # the pid as a number, not inside one
        seen.append(f"{path}: $GRADER_PID")
    for word in ("rlvr-grade/", "slot", "/var/tmp/"):
        if word in text.replace("rlvr-slot", ""):  # the check's own process name is no leak
            seen.append(f"{path}: {word}")
    # the host's name as a name of its own, not inside another word: a CI machine called "vm"
    # or "env" is no leak in "/env/lib" or "kvm"
    if re.search(r"(?<![\w.-])" + re.escape("$HOSTNAME") + r"(?![\w-])", text):
        seen.append(f"{path}: $HOSTNAME")
print("seen", seen)


def escaped():
    return bool(seen)
