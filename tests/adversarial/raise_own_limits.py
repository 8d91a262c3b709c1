# Tries to undo its own limits: rlimits back up, the cgroup's limits, a read-write root, root.
import ctypes
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
# Its own cgroups (from /proc/self/cgroup): raise the memory and process caps.
seen_cgroup_files = 0
for line in open("/proc/self/cgroup").read().splitlines():
    _, controllers, path = line.split(":", 2)
    for ctrl in controllers.split(",") if controllers else [""]:
        base = os.path.join("/sys/fs/cgroup", ctrl, path.lstrip("/"))
        for name in ("memory.limit_in_bytes", "memory.max", "pids.max"):
            target = os.path.join(base, name)
            if not os.path.exists(target):
                continue
            seen_cgroup_files += 1
            try:
                with open(target, "w") as fh:
                    fh.write("max" if name != "memory.limit_in_bytes" else "-1")
                undone.append(target)
            except OSError as exc:
                print("cgroup", target, exc)
print("cgroup files seen:", seen_cgroup_files)
try:
    r = subprocess.run(["mount", "-o", "remount,rw", "/"], capture_output=True, text=True)
    print("mount:", r.returncode, r.stderr.strip())
    if r.returncode == 0:
        undone.append("remount")
except OSError as exc:  # no mount binary in the root: the system call itself
    print("mount: binary", exc)
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(b"none", b"/", None, 32, None) == 0:  # MS_REMOUNT, read-write
    undone.append("remount syscall")
else:
    print("mount: syscall errno", ctypes.get_errno())
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
