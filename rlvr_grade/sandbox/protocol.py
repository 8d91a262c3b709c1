"""Length-prefixed JSON frames between the grader and its worker processes."""

from __future__ import annotations

import json
import os
import struct
from typing import Any

_HEADER = struct.Struct(">I")


def encode(message: Any) -> bytes:
    """A frame's body: compact JSON, by the standard library (a worker runs an environment's
    interpreter, which has nothing else)."""
    return json.dumps(message, separators=(",", ":")).encode()


def send(fd: int, message: Any) -> None:
    send_bytes(fd, encode(message))


def send_bytes(fd: int, data: bytes) -> None:
    """One frame whose body `data` is already encoded JSON (the grader's: local.encode_request)."""
    buf = _HEADER.pack(len(data)) + data
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> Any | None:
    head = _read_exact(fd, _HEADER.size)
    if head is None:
        return None
    (size,) = _HEADER.unpack(head)
    body = _read_exact(fd, size)
    if body is None:
        return None
    return json.loads(body)
