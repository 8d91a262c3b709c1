# Tries to undo its own limits: rlimits back up, the cgroup's limits, a read-write root, root.
import glob
import os
import resource
import subprocess

undone = []
for lim in (resource.RLIMIT_NPROC, resource.RLIMIT_CPU, resource.RLIMIT_FSIZE, resource.RLIMIT_AS):
    if resource.getrlimit(lim)[1] == resource.RLIM_INFINITY:
        continue  # not a limit this check has
    try:
        resource.setrlimit(lim, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        undone.append(f"rlimit {lim}")
    except (OSError, ValueError) as exc:
        print("rlimit", lim, exc)
for path in glob.glob("/sys/fs/cgroup/**/rlvr-grade/**/*.max", recursive=True) + glob.glob(
    "/sys/fs/cgroup/*/rlvr-grade/*/*limit_in_bytes"
):
    try:
        with open(path, "w") as fh:
            fh.write("max")
        undone.append(path)
    except OSError as exc:
        print("cgroup", path, exc)
r = subprocess.run(["mount", "-o", "remount,rw", "/"], capture_output=True, text=True)
print("mount:", r.returncode, r.stderr.strip())
if r.returncode == 0:
    undone.append("remount")
try:
    with open("/etc/rlvr-owned", "w") as fh:
        fh.write("x")
    undone.append("/etc writable")
except OSError as exc:
    print("etc", exc)
for call in (lambda: os.setuid(0), lambda: os.setgid(0), lambda: os.setresuid(0, 0, 0)):
    try:
        call()
        undone.append("setuid")
    except OSError as exc:
        print("setuid", exc)
if os.getuid() == 0 or os.geteuid() == 0:
    undone.append("root")


def escaped():
    return bool(undone)
