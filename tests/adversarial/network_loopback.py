# Connects to a server the grader's host is running on 127.0.0.1:$PORT.
import socket

reply = None
try:
    s = socket.create_connection(("127.0.0.1", int("$PORT")), timeout=2)
    s.sendall(b"hello from the sandbox\n")
    reply = s.recv(100)
except OSError as exc:
    print("connect failed:", exc)


def escaped():
    return reply is not None
