# TCP to an outside address, UDP to a public resolver, and a DNS lookup.
import socket

reached = []
try:
    socket.create_connection(("$OUTSIDE_IP", 443), timeout=2).close()
    reached.append("tcp")
except OSError as exc:
    print("tcp failed:", exc)
try:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b"x", ("1.1.1.1", 53))
    reached.append("udp")
except OSError as exc:
    print("udp failed:", exc)
try:
    socket.getaddrinfo("pypi.org", 443)
    reached.append("dns")
except OSError as exc:
    print("dns failed:", exc)


def escaped():
    return bool(reached)
