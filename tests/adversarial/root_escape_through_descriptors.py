# Climbs out of the root the ways a chroot is left: ".." from a descriptor of "/" (and fifty
# levels of it through fchdir), /proc/self/root, /proc/1/root and /proc/self/cwd, every
# descriptor the check was born with (a directory or file of the grader's, the worker's mount
# template), the lower layers the overlays name in mountinfo (/proc/self/fd/N of the worker),
# and the descriptors of the check's other processes. The host's own top-level directories
# (boot, home, var, srv, run...) must not show up anywhere.
import os

HOST_ONLY = {"boot", "home", "var", "srv", "run", "mnt", "opt", "media"}
found = []


def look(label, path, dir_fd=None):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY, dir_fd=dir_fd)
    except OSError:
        return
    try:
        names = set(os.listdir(fd))
    finally:
        os.close(fd)
    if names & HOST_ONLY:
        found.append((label, sorted(names & HOST_ONLY)))


root = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
look("openat(/, ..)", "..", root)
look("openat(/, ../../..)", "../../..", root)
os.fchdir(root)
for _ in range(50):
    os.chdir("..")
look("fifty chdir ..", ".")
for p in ("/proc/self/root", "/proc/self/root/..", "/proc/1/root", "/proc/1/root/..", "/proc/self/cwd/../../..",
          "/proc/thread-self/root", "/dev/fd/../../..", "/proc/self/fd/../../../.."):
    look(p, p)
born_with = []
for fd in [int(n) for n in os.listdir("/proc/self/fd") if int(n) > 2 and int(n) != root]:
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        continue
    born_with.append((fd, target))
    look(f"fd {fd} ({target})", ".", fd)
    look(f"fd {fd} ..", "..", fd)
    look(f"fd {fd} via /proc", f"/proc/self/fd/{fd}")
with open("/proc/self/mountinfo") as fh:
    for line in fh:
        for opt in line.split()[-1].split(","):
            if opt.startswith(("lowerdir=", "upperdir=", "workdir=")):
                for layer in opt.split("=", 1)[1].split(":"):
                    look(f"layer {layer}", layer)
                    look(f"layer {layer}/..", layer + "/..")
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            look(f"/proc/{pid}/fd/{fd}", f"/proc/{pid}/fd/{fd}")
    except OSError:
        pass
print("born with", born_with, "found", found)


def escaped():
    return bool(found)
