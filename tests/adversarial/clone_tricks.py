# Processes whose parent is not in the check: clone(CLONE_PARENT) from the pid namespace's
# init (the child would be the worker's), from a child (a sibling of init?), clone with
# CLONE_NEWTIME or CLONE_NEWPID among other flags, unshare of the time namespace, clone3.
# A process whose getppid() is 0 lives beside the check, not in it.
import ctypes
import os
import signal

libc = ctypes.CDLL(None, use_errno=True)
outside = []
made = []
SIGCHLD = 17
for name, flags in (("CLONE_PARENT", 0x00008000), ("CLONE_PARENT|CLONE_NEWPID", 0x00008000 | 0x20000000),
                    ("CLONE_NEWTIME", 0x80 | SIGCHLD), ("CLONE_NEWPID", 0x20000000 | SIGCHLD),
                    ("CLONE_PARENT from a child", 0x00008000)):
    if name.endswith("from a child"):
        pid = os.fork()
        if pid:
            os.waitpid(pid, 0)
            continue
    r, w = os.pipe()
    ret = libc.syscall(56, ctypes.c_long(flags | SIGCHLD), 0, 0, 0, 0)  # raw clone: fork-like
    if ret == 0:
        os.write(w, b"%d" % os.getppid())
        os._exit(0)
    err = ctypes.get_errno()
    os.close(w)
    if ret > 0:
        parent = os.read(r, 32)
        made.append((name, parent.decode()))
        if parent == b"0":
            outside.append(name)
    else:
        print(name, os.strerror(err), flush=True)
    os.close(r)
    if name.endswith("from a child"):
        print("from child", made, outside, flush=True)
        os._exit(1 if outside else 0)
for name, nr, args in (("unshare(CLONE_NEWTIME)", 272, (0x80,)), ("clone3", 435, (0, 0))):
    ret = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    if ret >= 0:
        outside.append(name)
signal.signal(signal.SIGCHLD, signal.SIG_DFL)
print("made", made, "outside", outside, flush=True)


def escaped():
    return bool(outside)
