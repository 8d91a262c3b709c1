# The other end of shmem_sender: reads sysinfo's machine-wide `sharedram` (shmem and tmpfs
# pages of every process on the machine) while the sender holds its /tmp file and while it
# does not. sysinfo stays allowed (glibc's sysconf reads it: docs/sandbox.md, residuals); the
# figure moved by a check's own /tmp is the message.
import ctypes
import time

LOOK = float("$LOOK_S")


class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint)]


libc = ctypes.CDLL(None, use_errno=True)


def shared_mib():
    si = SysInfo()
    return si.sharedram * si.mem_unit / 2**20 if libc.sysinfo(ctypes.byref(si)) == 0 else None


def window():
    seen = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < LOOK:
        seen.append(shared_mib())
        time.sleep(0.05)
    return None if None in seen else sorted(seen)[len(seen) // 2]


busy = window()
time.sleep(LOOK * 1.5)
idle = window()
carried = busy is not None and idle is not None and busy - idle >= 8
print("sharedram MiB busy", busy, "idle", idle, "carried", carried)


def escaped():
    return carried
