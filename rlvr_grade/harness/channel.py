"""The harness side of the result channel: events encoded with references captured before the
candidate runs, so patching `json.dumps`, `json.encoder.*` or `os.write` from candidate code
cannot rewrite a "failed" into a "passed" on its way out."""

from __future__ import annotations

import json.encoder as _enc
import os
from typing import Any, Callable


def make_reporter(prefix: bytes, fd: int) -> Callable[[dict[str, Any]], None]:
    """report(event) for flat events of str/int/float/bool/None values (what the runner sends)."""
    esc = _enc.c_encode_basestring_ascii or _enc.py_encode_basestring_ascii
    write = os.write
    _type, _str, _repr, _int, _float, _bool = type, str, repr, int, float, bool
    join = ",".join
    encode = str.encode

    def value(v: Any) -> str:
        t = _type(v)
        if v is None:
            return "null"
        if t is _bool:
            return "true" if v else "false"
        if t is _int:
            return _int.__repr__(v)
        if t is _float:
            return _float.__repr__(v) if v == v and v not in (float("inf"), float("-inf")) else "null"
        if t is _str:
            return esc(v)
        return esc(_str.__str__(_repr(v)) if _type(_repr(v)) is _str else "?")

    def report(event: dict[str, Any]) -> None:
        body = "{" + join([esc(_str.__str__(k)) + ":" + value(v) for k, v in dict.items(event)]) + "}"
        line = prefix + encode(body) + b"\n"
        try:
            write(fd, line)
        except OSError:
            pass

    return report
