# Leaves the slot's network namespace a bound abstract unix socket that outlives the check: the
# socket's only reference is itself, in flight in its own receive queue (SCM_RIGHTS), so no
# process holds it and only the kernel's garbage collector frees it. The next check in the
# slot (unix_gc_cycle_receiver) finds the name taken.
import socket

made = []
for i in range(4):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(f"\0rlvr-gc-$MARK-{i}")
    t = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    t.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, bytes(memoryview(__import__("array").array("i", [s.fileno()]))))],
              0, f"\0rlvr-gc-$MARK-{i}")
    if i % 2:
        t.close()
        s.close()
    else:
        s.close()
        t.close()
    made.append(i)
print("made", made, flush=True)


def escaped():
    return False
