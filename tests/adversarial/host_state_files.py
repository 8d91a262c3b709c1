# Reads what the host's kernel tells about everyone: /proc's global files (memory, load, locks,
# every process's count, sysctls) and /sys (every slot's cgroup files: counters another check
# moved), and lists /proc for processes that are not its own.
import os

readable = []
for path in ("/proc/meminfo", "/proc/loadavg", "/proc/stat", "/proc/locks", "/proc/vmstat", "/proc/uptime",
             "/proc/sys/kernel/random/boot_id", "/proc/sys/fs/file-nr", "/proc/pressure/cpu", "/proc/kallsyms",
             "/proc/interrupts", "/proc/diskstats", "/proc/cgroups", "/proc/sysvipc/shm", "/proc/keys",
             "/sys/fs/cgroup/pids", "/sys/fs/cgroup/memory", "/sys/kernel", "/sys/class/net", "/sys/devices"):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as fh:
                fh.read(64)
        readable.append(path)
    except OSError:
        pass
own = {str(os.getpid()), "1"}
others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) > 64]
print("readable", readable, "others", others[:5])


def escaped():
    return bool(readable) or bool(others)
