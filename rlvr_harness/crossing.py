"""What crosses between a split check's two processes (docs/fidelity.md, "The program in a process
of its own"): the tests' process and the program's, on a socketpair. One module for both
directions, so they cannot drift apart.

A message is a 4-byte big-endian length and that many bytes of JSON. Values are values.py's
tagged JSON (plain values, copied) plus what only a split check sends:
- {"$handle": n}: an object of the program's, the n-th of its process's table (proxies.Proxy on
  the tests' side); sent the other way, the object the tests got as that handle.
- {"$class": [n, name, kind]}: a class of the program's (kind "exception:<builtin base>" or
  "class"); the tests' side stands in a local class for it (proxies.stand_in).
- {"$module": name}: a module object; the tests take their own module of that name.
- {"$bytearray": hex}, {"$date": [...]}, {"$datetime": [...]}, {"$time": [...]},
  {"$timedelta": [...]}: the trusted types strict.py compares by their own ==, by exact type.

`read_message` and `decode` are total: any bytes give a value or a CrossingError, never
another exception (tests/harness/test_crossing.py drives them with hypothesis).

Sealed: the standard library and the harness only."""

from __future__ import annotations

import json
import struct
import sys
from typing import Any

from rlvr_harness import values

MAX_MESSAGE = 256 << 20  # a message past this is a failure of the call, not an allocation
_LEN = struct.Struct(">I")


class CrossingError(Exception):
    """A message that is not one the other side can have written (or no message: the other
    process is gone)."""


def frame(obj: Any) -> bytes:
    data = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
    if len(data) > MAX_MESSAGE:
        raise CrossingError("a message larger than a split check carries")
    return _LEN.pack(len(data)) + data


def send(sock: Any, obj: Any) -> None:
    data = frame(obj)
    try:
        sock.sendall(data)
    except OSError as exc:
        raise CrossingError(f"the other process is gone ({exc.__class__.__name__})") from None


def _recv_exact(sock: Any, n: int) -> bytes:
    parts = []
    while n:
        try:
            chunk = sock.recv(min(n, 1 << 20))
        except OSError as exc:
            raise CrossingError(f"the other process is gone ({exc.__class__.__name__})") from None
        if not chunk:
            raise CrossingError("the other process is gone")
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def read_message(sock: Any) -> Any:
    """The next message's JSON value (CrossingError when there is none, or it is not JSON)."""
    (n,) = _LEN.unpack(_recv_exact(sock, 4))
    if n > MAX_MESSAGE:
        raise CrossingError("a message larger than a split check carries")
    return parse(_recv_exact(sock, n))


def parse(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError, UnicodeDecodeError, TypeError):
        raise CrossingError("a message that is not JSON") from None


def encode(value: Any, other: Any) -> Any:
    """values.encode with `other` for what is not plain (its trusted types first)."""
    def more(v: Any) -> Any:
        return _trusted(v, more) or other(v)

    return values.encode(value, 0, more)


def decode(value: Any, other: dict[str, Any]) -> Any:
    """values.decode with the split's tags (`other`: the side's own, e.g. $handle). Total: a
    malformed value is a CrossingError."""
    tags = {**TRUSTED_TAGS, **other}
    _TAGS_NOW[0] = tags
    try:
        return values.decode(value, 0, tags)
    except CrossingError:
        raise
    except (values.MalformedValue, ValueError, TypeError, OverflowError, RecursionError, KeyError,
            IndexError, AttributeError, MemoryError):
        raise CrossingError("a value the other side cannot have written") from None


# -- the trusted types strict.py compares by their own == (exact types only) --------------------

def _trusted(value: Any, more: Any) -> Any:
    import datetime as dt

    t = type(value)
    if t is bytearray:
        return {"$bytearray": bytes(value).hex()}
    if t is complex:
        return {"$complex": [values.encode(value.real), values.encode(value.imag)]}
    stdlib = _stdlib(value, t, lambda v: values.encode(v, 0, more))
    if stdlib is not None:
        return stdlib
    if t is dt.timedelta:
        return {"$timedelta": [value.days, value.seconds, value.microseconds]}
    if t is dt.date:
        return {"$date": [value.year, value.month, value.day]}
    if t is dt.datetime or t is dt.time:
        zone = _zone(value.tzinfo)
        if zone is None:
            return None
        fields = [value.hour, value.minute, value.second, value.microsecond, value.fold]
        if t is dt.datetime:
            return {"$datetime": [value.year, value.month, value.day, *fields, zone]}
        return {"$time": [*fields, zone]}
    return None


_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))


def _stdlib(value: Any, t: type, enc: Any) -> Any:
    """The stdlib's containers and records strict.py compares by their contents, as data
    (each rebuilt on the other side from the data alone): deque, dict views, SimpleNamespace,
    pathlib's paths, a byte memoryview. Looked up in sys.modules, not imported."""
    collections, types_, pathlib = (sys.modules.get(m) for m in ("collections", "types", "pathlib"))
    if collections is not None and t is collections.deque:
        return {"$deque": [enc(list(value)), value.maxlen]}
    if t in _VIEWS:
        return {"$view": [_VIEWS.index(t), enc(list(value))]}
    if types_ is not None and t is types_.SimpleNamespace:
        return {"$namespace": enc(dict(vars(value)))}
    if types_ is not None and t is types_.MappingProxyType:
        return {"$mappingproxy": enc(dict(value))}
    if pathlib is not None and t in (pathlib.PosixPath, pathlib.PurePosixPath):
        return {"$path": [str(value), t is pathlib.PosixPath]}
    if t is memoryview and value.format == "B" and value.ndim == 1:
        return {"$bytes": value.tobytes().hex()}
    return None


def _zone(tz: Any) -> Any:
    """A time's zone as data: None (naive) -> 0, an exact datetime.timezone -> [offset in
    microseconds, its name], an exact zoneinfo.ZoneInfo -> its key; None for any other tzinfo
    (the program's own class: a handle)."""
    import datetime as dt

    if tz is None:
        return 0
    if type(tz) is dt.timezone:
        off = tz.utcoffset(None)
        return [(off.days * 86400 + off.seconds) * 1_000_000 + off.microseconds, tz.tzname(None)]
    zoneinfo = sys.modules.get("zoneinfo")
    if zoneinfo is not None and type(tz) is zoneinfo.ZoneInfo and type(tz.key) is str:
        return tz.key
    return None


def _tz(zone: Any) -> Any:
    import datetime as dt

    if zone == 0 and type(zone) is int:
        return None
    if type(zone) is list and len(zone) == 2 and type(zone[0]) is int and type(zone[1]) is str:
        return dt.timezone(dt.timedelta(microseconds=zone[0]), zone[1])
    if type(zone) is str:
        import zoneinfo  # the tests' own: its search path and cache are this process's

        try:
            return zoneinfo.ZoneInfo(zone)
        except (ValueError, OSError, zoneinfo.ZoneInfoNotFoundError):
            raise CrossingError("a time zone this process does not have") from None
    raise CrossingError("a time zone that is not one")


def _ints(inner: Any, n: int) -> list[int]:
    if type(inner) is not list or len(inner) != n or any(type(x) is not int for x in inner):
        raise CrossingError("a date or time that is not its fields")
    return inner


def _date(inner: Any, depth: int) -> Any:
    import datetime as dt

    return dt.date(*_ints(inner, 3))


def _datetime(inner: Any, depth: int) -> Any:
    import datetime as dt

    if type(inner) is not list or len(inner) != 9:
        raise CrossingError("a datetime that is not its fields")
    *fields, fold = _ints(inner[:8], 8)
    return dt.datetime(*fields, fold=fold, tzinfo=_tz(inner[8]))


def _time(inner: Any, depth: int) -> Any:
    import datetime as dt

    if type(inner) is not list or len(inner) != 6:
        raise CrossingError("a time that is not its fields")
    *fields, fold = _ints(inner[:5], 5)
    return dt.time(*fields, fold=fold, tzinfo=_tz(inner[5]))


def _timedelta(inner: Any, depth: int) -> Any:
    import datetime as dt

    days, seconds, micro = _ints(inner, 3)
    return dt.timedelta(days=days, seconds=seconds, microseconds=micro)


def _bytearray(inner: Any, depth: int) -> Any:
    if type(inner) is not str:
        raise CrossingError("a bytearray that is not hex")
    return bytearray.fromhex(inner)


def _complex(inner: Any, depth: int) -> Any:
    parts = [values.decode(p) for p in inner] if type(inner) is list and len(inner) == 2 else None
    if parts is None or any(type(p) is not float for p in parts):
        raise CrossingError("a complex that is not two floats")
    return complex(*parts)


def _deque(inner: Any, depth: int) -> Any:
    import collections

    if type(inner) is not list or len(inner) != 2 or type(inner[0]) is not list or not (
            inner[1] is None or type(inner[1]) is int and inner[1] >= 0):
        raise CrossingError("a deque that is not [items, maxlen]")
    return collections.deque(values.decode(inner[0], depth, _TAGS_NOW[0]), inner[1])


def _view(inner: Any, depth: int) -> Any:
    if type(inner) is not list or len(inner) != 2 or inner[0] not in (0, 1, 2) or type(inner[0]) is not int:
        raise CrossingError("a dict view that is not [kind, items]")
    items = values.decode(inner[1], depth, _TAGS_NOW[0])
    if type(items) is not list:
        raise CrossingError("a dict view that is not [kind, items]")
    if inner[0] == 0:
        return dict.fromkeys(items).keys()
    if inner[0] == 1:
        return dict(enumerate(items)).values()
    if any(type(p) is not tuple or len(p) != 2 for p in items):
        raise CrossingError("dict items that are not pairs")
    return dict(items).items()


def _namespace(inner: Any, depth: int) -> Any:
    import types

    fields = values.decode(inner, depth, _TAGS_NOW[0]) if type(inner) is dict else None
    if type(fields) is not dict or any(type(k) is not str for k in fields):
        raise CrossingError("a namespace that is not its fields")
    return types.SimpleNamespace(**fields)


def _mappingproxy(inner: Any, depth: int) -> Any:
    import types

    mapping = values.decode(inner, depth, _TAGS_NOW[0])
    if type(mapping) is not dict:
        raise CrossingError("a mapping proxy that is not a dict")
    return types.MappingProxyType(mapping)


def _path(inner: Any, depth: int) -> Any:
    import pathlib

    if type(inner) is not list or len(inner) != 2 or type(inner[0]) is not str or type(inner[1]) is not bool:
        raise CrossingError("a path that is not [text, concrete]")
    return (pathlib.PosixPath if inner[1] else pathlib.PurePosixPath)(inner[0])


# the tags of the decode under way (a container's items are decoded with the side's own tags)
_TAGS_NOW: list[Any] = [None]

TRUSTED_TAGS = {"$complex": _complex, "$deque": _deque, "$view": _view, "$namespace": _namespace, "$path": _path,
                "$mappingproxy": _mappingproxy,
                "$bytearray": _bytearray, "$date": _date, "$datetime": _datetime, "$time": _time,
                "$timedelta": _timedelta}
