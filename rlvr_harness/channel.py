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
    # The process the harness runs in. A forked child that returns into the harness (candidate
    # code that forks) writes nothing: its records would be forgeries to the worker, which
    # accepts the channel's bytes from this process only (sandbox/zygote.py result_channel).
    getpid = os.getpid
    me = getpid()
    _type, _str, _repr, _int, _float, _bool = type, str, repr, int, float, bool
    join = ",".join
    encode = str.encode

    _list, _tuple, _dict = list, tuple, dict
    items = dict.items
    inf = float("inf")

    def value(v: Any, depth: int = 0) -> str:
        """JSON for plain values, nested lists/dicts included (stdio/call styles send outputs);
        anything else becomes its repr string, as json.dumps(default=repr) would."""
        t = _type(v)
        if v is None:
            return "null"
        if t is _bool:
            return "true" if v else "false"
        if t is _int:
            return _int.__repr__(v)
        if t is _float:
            if v != v:
                return "NaN"  # what json.dumps writes and json.loads reads back
            return "Infinity" if v == inf else "-Infinity" if v == -inf else _float.__repr__(v)
        if t is _str:
            return esc(v)
        if depth < 100 and (t is _list or t is _tuple):
            return "[" + join([value(x, depth + 1) for x in v]) + "]"
        if depth < 100 and t is _dict:
            return "{" + join([esc(k if _type(k) is _str else _str.__str__(_repr(k))) + ":" + value(x, depth + 1)
                                for k, x in items(v)]) + "}"
        r = _repr(v)
        return esc(r if _type(r) is _str else "?")

    def report(event: dict[str, Any]) -> None:
        if getpid() != me:
            return
        body = value(event)
        # Each record starts a line of its own: what the candidate wrote on the channel without
        # a newline cannot swallow it (lines without this check's nonce are dropped).
        line = b"\n" + prefix + encode(body) + b"\n"
        try:
            write(fd, line)
        except OSError:
            pass

    return report
