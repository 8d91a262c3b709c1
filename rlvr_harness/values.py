"""Plain values as tagged JSON: how a call-style case's return value leaves the sandbox
(`encode`, in the case's process) and is read back outside it (`decode`, scoring/compare.py
compares what it gives). One module for both directions, so they cannot drift apart."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

MAX_DEPTH = 200


# An int past int<->str's 4,300-digit limit (sys.int_info.default_max_str_digits) cannot be
# written or read as JSON text (json raises ValueError on both sides): one that wide travels as
# hex, which has no limit. 14,000 bits is ~4,214 digits.
BIG_BITS = 14_000

_EXACT = frozenset((type(None), bool, int, float, str, bytes, list, tuple, dict, set, frozenset))


class NotPlain(TypeError):
    """A return value that is not a plain value (or is a subclass of one)."""


# A subclass of a builtin is encoded as the value it stores, read with the base type's own
# (C) methods, never the subclass's: a defaultdict, Counter, OrderedDict, namedtuple or IntEnum
# is a correct answer where a dict, list or int is expected (the reference judges compare
# with Python's ==, which says so), and only data leaves the sandbox: an overridden __eq__,
# __iter__ or items() is never called, here or in the comparison outside.
_STORED = (
    (bool, None), (int, int.__index__), (float, float.__float__), (str, str.__str__), (bytes, lambda v: bytes.__add__(b"", v)), (list, list.copy),
    (tuple, lambda v: tuple.__getitem__(v, slice(None))), (dict, lambda v: dict(dict.items(v))),
    (frozenset, lambda v: frozenset(frozenset.__iter__(v))), (set, lambda v: set(set.__iter__(v))),
)


def _stored(value: Any) -> Any:
    """The builtin value a subclass instance stores, or `value` itself when its type derives
    from no builtin of _STORED (then it is not plain)."""
    mro = type(value).__mro__
    for base, read in _STORED:
        if base in mro:
            return value if read is None else read(value)
    return value


def encode(value: Any, depth: int = 0, other: Any = None) -> Any:
    """Plain Python value -> tagged JSON. A subclass of a builtin is encoded as the value it
    stores (_STORED); anything else that is not a plain value is refused, or, where `other` is
    given, is what `other(value)` makes of it (a split check's handles: rlvr_harness/crossing.py)."""
    if depth > MAX_DEPTH:
        raise NotPlain("value nested too deeply")
    t = type(value)
    if t not in _EXACT:
        stored = _stored(value)
        if stored is not value and type(stored) in _EXACT:
            value, t = stored, type(stored)
    if t is int and value.bit_length() > BIG_BITS:
        return {"$int": format(value, "x")}  # no JSON text can hold it: see BIG_BITS
    if value is None or t is bool or t is int or t is str:
        return value
    if t is float:
        if math.isnan(value):
            return {"$float": "nan"}
        if math.isinf(value):
            return {"$float": "inf" if value > 0 else "-inf"}
        return value
    if t is list:
        return [encode(v, depth + 1, other) for v in value]
    if t is tuple:
        return {"$tuple": [encode(v, depth + 1, other) for v in value]}
    if t is set or t is frozenset:
        items = [encode(v, depth + 1, other) for v in value]
        items.sort(key=lambda x: json.dumps(x, sort_keys=True))  # deterministic order
        return {"$set" if t is set else "$frozenset": items}
    if t is dict:
        if all(type(k) is str for k in value) and not (len(value) == 1 and next(iter(value)).startswith("$")):
            return {k: encode(v, depth + 1, other) for k, v in value.items()}
        return {"$dict": [[encode(k, depth + 1, other), encode(v, depth + 1, other)] for k, v in value.items()]}
    if t is bytes:
        return {"$bytes": value.hex()}
    number = _stdlib_number(value, t)
    if number is not None:
        return number
    if other is not None:
        return other(value)
    raise NotPlain(f"returned a {t.__module__}.{t.__qualname__}, not a plain value")


def _stdlib_number(value: Any, t: type) -> Any:
    """An exact fractions.Fraction or decimal.Decimal (never a subclass), tagged: the
    stdlib's exact numbers, whose == Python answers outside (Fraction(2) == 2). Looked up in
    sys.modules, not imported: a program that returns one has imported it. A class that only
    poses as one (the program's own, under that module's name) can send no more than a
    Fraction or Decimal of its choosing, which the program could have returned anyway."""
    fractions, decimal = sys.modules.get("fractions"), sys.modules.get("decimal")
    if fractions is not None and t is getattr(fractions, "Fraction", None):
        num, den = value.numerator, value.denominator
        if type(num) is not int or type(den) is not int or den <= 0:
            return None
        return {"$fraction": [encode(num), encode(den)]}
    if decimal is not None and t is getattr(decimal, "Decimal", None):
        text = t.__str__(value)
        return {"$decimal": text} if type(text) is str else None
    return None


# `encode` writes JSON where lists, str,
# int, bool, None and finite floats are themselves, and everything JSON cannot say is a
# one-key tagged object: {"$tuple": [...]}, {"$set": [...]}, {"$frozenset": [...]},
# {"$dict": [[k, v], ...]} (keys of any plain type), {"$float": "nan"|"inf"|"-inf"},
# {"$bytes": "<hex>"}, {"$int": "<hex>"} (an int past BIG_BITS), {"$fraction": [num, den]},
# {"$decimal": "<str of it>"}. A value that is none of these never leaves the sandbox as a value.
_TAGS = ("$tuple", "$set", "$frozenset", "$dict", "$float", "$bytes", "$int", "$fraction", "$decimal")
_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
# Tagged JSON is at most twice as deep as the value (`encode` goes MAX_DEPTH levels).
MAX_DECODE_DEPTH = 450


class MalformedValue(ValueError):
    """A tagged value `encode` cannot have produced (a forged or corrupted result): the case
    it came with is judged wrong, never right."""


def decode(value: Any, depth: int = 0, other: Any = None) -> Any:
    """Tagged JSON -> Python plain values (tuples, sets, frozensets, dicts, float specials).
    Raises MalformedValue for a known tag whose content is not what `encode` writes. `other`:
    a dict of further tags (a split check's handles) -> what reads each one's content."""
    if depth > MAX_DECODE_DEPTH:
        raise MalformedValue(f"nested deeper than {MAX_DECODE_DEPTH}")
    if isinstance(value, list):
        return [decode(v, depth + 1, other) for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag in _TAGS:
                return _decode_tagged(tag, inner, depth + 1, other)
            if other is not None and tag in other:
                return other[tag](inner, depth + 1)
        return {k: decode(v, depth + 1, other) for k, v in value.items()}
    return value


def _decode_tagged(tag: str, inner: Any, depth: int, other: Any = None) -> Any:
    if tag == "$float":
        if not isinstance(inner, str) or inner not in _FLOATS:
            raise MalformedValue(f"$float of {inner!r:.40}")
        return _FLOATS[inner]
    if tag == "$int":
        digits = inner[1:] if isinstance(inner, str) and inner[:1] == "-" else inner
        if not isinstance(digits, str) or not digits or digits.strip("0123456789abcdef"):
            raise MalformedValue("$int that is not hex text")
        v = int(inner, 16)
        if v.bit_length() <= BIG_BITS:
            raise MalformedValue("$int of an int JSON holds as it is")
        return v
    if tag == "$fraction":
        from fractions import Fraction

        parts = [decode(v, depth) for v in inner] if isinstance(inner, list) else None
        if parts is None or len(parts) != 2 or any(type(p) is not int for p in parts) or parts[1] <= 0:
            raise MalformedValue("$fraction that is not [numerator, positive denominator]")
        return Fraction(parts[0], parts[1])
    if tag == "$decimal":
        import decimal

        if not isinstance(inner, str):
            raise MalformedValue("$decimal that is not text")
        try:
            return decimal.Decimal(inner)
        except (ArithmeticError, ValueError):
            raise MalformedValue("$decimal that is not a decimal's text") from None
    if tag == "$bytes":
        try:
            return bytes.fromhex(inner)
        except (TypeError, ValueError):
            raise MalformedValue("$bytes that is not hex text") from None
    if not isinstance(inner, list):
        raise MalformedValue(f"{tag} holding {type(inner).__name__}, not a list")
    if tag == "$tuple":
        return tuple([decode(v, depth, other) for v in inner])
    if tag == "$dict":
        if not all(isinstance(p, list) and len(p) == 2 for p in inner):
            raise MalformedValue("$dict entries that are not [key, value] pairs")
        try:
            return {_hashable(decode(k, depth, other)): decode(v, depth, other) for k, v in inner}
        except TypeError:
            raise MalformedValue("$dict with an unhashable key") from None
    try:  # $set / $frozenset
        items = [_hashable(decode(v, depth, other)) for v in inner]
        return set(items) if tag == "$set" else frozenset(items)
    except TypeError:
        raise MalformedValue(f"{tag} with an unhashable element") from None


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((repr(k), _hashable(x)) for k, x in v.items()))
    return v
