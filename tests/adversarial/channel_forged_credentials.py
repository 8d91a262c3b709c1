# A forked child writes on the result channel with SCM_CREDENTIALS naming the harness's own
# process (the check's pid-namespace init) instead of itself: the worker believes the kernel's
# word on who wrote each byte, and the kernel lets a process claim another pid only with
# CAP_SYS_ADMIN over the pid namespace. Tried at every descriptor that is a unix socket.
import os
import socket
import struct

forged = []


def sockets():
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                yield int(name)
        except OSError:
            pass


r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    got = []
    for fd in sockets():
        s = socket.socket(fileno=os.dup(fd))
        for claim in (os.getppid(), 1):
            creds = struct.pack("iII", claim, os.getuid(), os.getgid())
            try:
                s.sendmsg([b"\n"], [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, creds)])
                got.append((fd, claim))
            except OSError as exc:
                print("fd", fd, "claiming", claim, exc.strerror, flush=True)
        s.detach()
    os.write(w, repr(got).encode())
    os._exit(0)
os.close(w)
os.waitpid(pid, 0)
forged = eval(os.read(r, 4096) or b"[]")
print("forged", forged, flush=True)


def escaped():
    return bool(forged)
