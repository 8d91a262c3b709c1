# The other end of counter_sender: reads the same counters over a window while the sender is
# busy and one while it is idle. A difference far beyond the machine's own noise is a message.
import ctypes
import os
import time

LOOK = float("$LOOK_S")


def autogroup():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            with open("/proc/self/autogroup") as fh:
                os.write(w, fh.read().encode())
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    os.close(w)
    text = os.read(r, 200).decode()
    os.close(r)
    return int(text.split("autogroup-")[1].split()[0]) if "autogroup-" in text else None


def pipe_inode():
    r, w = os.pipe()
    ino = os.fstat(r).st_ino
    os.close(r)
    os.close(w)
    return ino


class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint)]


libc = ctypes.CDLL(None, use_errno=True)


def procs():
    si = SysInfo()
    return si.procs if libc.sysinfo(ctypes.byref(si)) == 0 else None


def window():
    a, p, n = autogroup(), pipe_inode(), procs()
    time.sleep(LOOK)
    b, q, m = autogroup(), pipe_inode(), procs()
    return {"autogroup": None if None in (a, b) else b - a, "pipe inode": q - p,
            "process count": None if None in (n, m) else (n + m) / 2}


busy = window()
time.sleep(LOOK * 1.5)
idle = window()
carried = [k for k, limit in (("autogroup", 20), ("pipe inode", 20000), ("process count", 12))
           if busy[k] is not None and idle[k] is not None and busy[k] - idle[k] >= limit]
print("busy", busy, "idle", idle, "carried", carried)


def escaped():
    return bool(carried)
