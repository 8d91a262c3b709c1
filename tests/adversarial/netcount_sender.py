# One of two concurrent checks (netcount_receiver is the other): opens ~900 sockets of every
# family and type it may, holds them 0.4 s, closes them, 0.4 s, again, for $HOLD_S seconds.
# /proc/self/net shows machine-wide figures beside the network namespace's own: sockstat's TCP
# and UDP alloc, mem and orphan, protocols' memory column, softnet_stat's packets.
import socket
import time

KINDS = [(socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET, socket.SOCK_DGRAM), (socket.AF_INET6, socket.SOCK_STREAM),
         (socket.AF_INET6, socket.SOCK_DGRAM), (socket.AF_NETLINK, socket.SOCK_RAW), (socket.AF_UNIX, socket.SOCK_STREAM),
         (socket.AF_PACKET, socket.SOCK_DGRAM)]
made = set()
t0 = time.monotonic()
while time.monotonic() - t0 < float("$HOLD_S"):
    held = []
    for family, kind in KINDS:
        for _ in range(900 // len(KINDS) + 1 if family == socket.AF_UNIX else 900):
            if len(held) >= 900:
                break
            try:
                held.append(socket.socket(family, kind))
                made.add((family.name, kind.name))
            except OSError:
                break
        if len(held) >= 900:
            break
    time.sleep(0.4)
    for s in held:
        s.close()
    time.sleep(0.4)
print("made", sorted(made), flush=True)


def escaped():
    return False
