# Every file of its own /proc the check can open for writing, against the short list of those
# that act on the writer alone (its name, its timer slack, LSM attributes on a host without an
# LSM). A kernel that adds a writable knob reaching past the process (an OOM score, a
# namespace map, a fault injector, a sysctl) shows up here before it is used.
import os
import stat

HARMLESS = {"comm", "timerslack_ns", "current", "exec", "fscreate", "keycreate", "sockcreate", "prev"}
writable = []


def walk(base, depth=0):
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and depth < 2 and name not in ("fd", "fdinfo", "map_files", "net", "ns"):
            walk(path, depth + 1)
        elif stat.S_ISREG(st.st_mode):
            try:
                fd = os.open(path, os.O_WRONLY)
            except OSError:
                continue
            os.close(fd)
            writable.append(path)


for top in ("/proc/self", "/proc/thread-self", "/proc/1"):
    walk(top)
walk("/proc", 2)  # host-wide files at the top (sysrq-trigger, sys/...) if any exist
reaching = sorted({p for p in writable if os.path.basename(p) not in HARMLESS})
print("writable", sorted(set(writable)))
print("reaching", reaching)


def escaped():
    return bool(reaching)
