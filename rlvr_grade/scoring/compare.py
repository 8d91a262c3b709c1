"""Pure comparison of a candidate's output with the expected one. Runs OUTSIDE the sandbox:
the expected value never enters it, and the candidate's output arrives here as plain data
(text for stdio, a tagged JSON value for call), so no candidate object takes part.

stdio modes
    exact            byte-for-byte equal text (after decoding)
    tokens           equal whitespace-separated tokens (the judges' default, and ours);
                     whitespace is ASCII's (space, \t, \n, \v, \f, \r) as judges read bytes:
                     a no-break space or U+2003 is part of a token, as in Kattis, DOMjudge
                     and testlib (Python's str.split() would split there)
    float            tokens; where both tokens are numbers they may differ by the tolerance
                     (|a-b| <= abs_tol or |a-b| <= rel_tol*|b|, defaults 1e-6 each); a NaN
                     token never equals anything, not even "nan"; a token that is not a
                     number must match exactly; "inf"/"infinity" equals only the same
                     infinity, a number past a float's range (a 400-digit answer, 1e999) is
                     compared as the decimal it is
    lines-unordered  the same multiset of lines, each compared as tokens; blank lines ignored

call values are compared with strict equality (see `values_equal`)."""

from __future__ import annotations

import decimal
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rlvr_harness.values import MalformedValue, decode

__all__ = ["COMPARE_MODES", "CompareSpec", "MalformedValue", "decode", "outputs_equal", "parse_mode", "values_equal"]

CompareMode = Literal["exact", "tokens", "float", "lines-unordered"]
COMPARE_MODES: tuple[str, ...] = ("exact", "tokens", "float", "lines-unordered")
DEFAULT_STDIO_MODE: CompareMode = "tokens"
# Kattis/DOMjudge use 1e-6 when a problem asks for a float tolerance; both are "either/or".
DEFAULT_ABS_TOL = 1e-6
DEFAULT_REL_TOL = 1e-6

# A decimal number as judges accept it: optional sign, digits with an optional fraction, or a
# fraction alone, an optional exponent; plus inf/infinity/nan in any case. A NaN token is
# never equal to anything (not even "nan"); an infinity only equals the same infinity.
# ASCII digits only (re.ASCII): "١٢" is a word to a judge, though Python's float() reads it.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z|[+-]?(?:inf|infinity|nan)\Z", re.I | re.A)
_INF_WORD = re.compile(r"[+-]?(?:inf|infinity)\Z", re.I | re.A)
# What judges call whitespace: the C locale's isspace() over bytes (DOMjudge's and Kattis'
# default validators, testlib), never Unicode's (str.split() also splits at U+00A0, U+2003,
# U+0085 and the separators U+001C-U+001F, where a judge sees one token).
_SPACE = re.compile(r"[ \t\n\v\f\r]+")


def tokens(text: str) -> list[str]:
    """`text`'s tokens as a judge reads them: split at runs of ASCII whitespace."""
    return [t for t in _SPACE.split(text) if t]


def _lines(text: str) -> list[str]:
    """`text`'s lines as a judge reads them: split at "\n" only (str.splitlines() also splits
    at U+2028, U+0085, \v, \f and U+001C-U+001E)."""
    return text.split("\n")

# Numbers past a float's range: exponents of any size, 200 significant digits (rounding never
# makes a nonzero difference zero; tolerances are far coarser than 1e-200 relative).
_WIDE = decimal.Context(prec=200, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[])


@dataclass(frozen=True)
class CompareSpec:
    """How one row's outputs are compared."""

    mode: CompareMode = DEFAULT_STDIO_MODE
    abs_tol: float = DEFAULT_ABS_TOL
    rel_tol: float = DEFAULT_REL_TOL


def parse_mode(text: str) -> CompareSpec:
    """`tokens`, `exact`, `lines-unordered`, `float`, or `float:ABS[:REL]` -> CompareSpec.

    Raises ValueError naming the bad part."""
    text = text.strip()
    head, _, rest = text.partition(":")
    if head not in COMPARE_MODES:
        raise ValueError(f"unknown compare mode {head!r}; choose from {', '.join(COMPARE_MODES)} (float:ABS[:REL])")
    if head != "float":
        if rest:
            raise ValueError(f"compare mode {head!r} takes no tolerance")
        return CompareSpec(mode=head)  # type: ignore[arg-type]
    if not rest:
        return CompareSpec(mode="float")
    parts = rest.split(":")
    if len(parts) > 2:
        raise ValueError(f"float compare takes at most ABS:REL, got {rest!r}")
    try:
        tols = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"float tolerance {rest!r} is not a number") from None
    if any(not (t >= 0) or math.isinf(t) for t in tols):
        raise ValueError(f"float tolerance {rest!r} must be finite and >= 0")
    abs_tol = tols[0]
    rel_tol = tols[1] if len(tols) == 2 else tols[0]
    return CompareSpec(mode="float", abs_tol=abs_tol, rel_tol=rel_tol)


def outputs_equal(got: str, expected: str, spec: CompareSpec) -> bool:
    """Whether a program's stdout `got` is an accepted answer for `expected`."""
    if spec.mode == "exact":
        return got == expected
    if spec.mode == "tokens":
        return tokens(got) == tokens(expected)
    if spec.mode == "float":
        a, b = tokens(got), tokens(expected)
        return len(a) == len(b) and all(_float_token_equal(x, y, spec) for x, y in zip(a, b, strict=True))
    if spec.mode == "lines-unordered":
        la = sorted(t for t in (tuple(tokens(line)) for line in _lines(got)) if t)
        lb = sorted(t for t in (tuple(tokens(line)) for line in _lines(expected)) if t)
        return la == lb
    raise ValueError(f"unknown compare mode {spec.mode!r}")


def _float_token_equal(got: str, expected: str, spec: CompareSpec) -> bool:
    if _NUMBER.match(got) is None or _NUMBER.match(expected) is None:
        return got == expected  # words match exactly
    a, b = float(got), float(expected)
    if math.isnan(a) or math.isnan(b):
        return False
    if math.isinf(a) or math.isinf(b):
        # "inf" is an infinity and equals only the same one; a number too big for a float
        # (a 400-digit answer, 1e999) is still that number: as floats any two of them were
        # the same infinity, so a wrong 400-digit answer passed. Compared as decimals.
        wa, wb = _INF_WORD.match(got) is not None, _INF_WORD.match(expected) is not None
        if wa or wb:
            return wa and wb and a == b
        with decimal.localcontext(_WIDE) as ctx:
            da, db = decimal.Decimal(got), decimal.Decimal(expected)  # exact: the context rounds results only
            diff = abs(da - db)
            return diff <= ctx.create_decimal_from_float(spec.abs_tol) or diff <= ctx.create_decimal_from_float(spec.rel_tol) * abs(db)
    diff = abs(a - b)
    return diff <= spec.abs_tol or diff <= spec.rel_tol * abs(b)


# -- call values -------------------------------------------------------------------------------
# Return values arrive as tagged JSON and are decoded by rlvr_harness/values.py `decode` (a
# MalformedValue for what `encode` cannot have written).
def _stdlib_number_equal(got: Fraction | decimal.Decimal, expected: int | float, float_spec: CompareSpec | None) -> bool:
    """A returned Fraction or Decimal (exact types) against an expected int or float: Python's
    == (Fraction(2) == 2, Decimal('1.5') == 1.5, Decimal('0.1') != 0.1), or under a float
    tolerance the same rule as for floats, on exact rationals. A NaN never equals, a
    signalling one neither (its == raises)."""
    try:
        tolerant = float_spec is not None and float_spec.mode == "float" and isinstance(expected, float)
        finite = math.isfinite(expected) and (type(got) is Fraction or got.is_finite())
        if not (tolerant and finite):
            return bool(got == expected)
        if type(got) is decimal.Decimal:
            # in _WIDE, as the float tokens are: Fraction(Decimal('1e-999999999')) would build
            # a billion-digit denominator here, outside the sandbox
            with decimal.localcontext(_WIDE) as ctx:
                e = ctx.create_decimal_from_float(expected)
                diff = abs(got - e)
                return diff <= ctx.create_decimal_from_float(float_spec.abs_tol) or diff <= ctx.create_decimal_from_float(float_spec.rel_tol) * abs(e)
        d = abs(got - Fraction(expected))
        return d <= Fraction(float_spec.abs_tol) or d <= Fraction(float_spec.rel_tol) * abs(Fraction(expected))
    except (ArithmeticError, ValueError):
        return False


def values_equal(got: Any, expected: Any, float_spec: CompareSpec | None = None, json_expected: bool = True) -> bool:
    """Strict equality of two decoded plain values.

    - bool is not int (True != 1); int and float compare by value (2 == 2.0); NaN never equal.
    - a returned fractions.Fraction or decimal.Decimal (exact types) equals an int or float
      as Python's == says (Fraction(2) == 2), or by the float tolerance on exact rationals.
    - floats equal exactly unless `float_spec` (mode "float") gives a tolerance.
    - str, bytes, None only equal their own type.
    - `json_expected`: the expected value came from JSON, which has no tuples, so a returned
      tuple may match an expected list (LeetCode/APPS data); a list never matches an expected
      tuple, set or dict.
    """
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is bool and type(expected) is bool and got == expected
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        if type(got) is Fraction or type(got) is decimal.Decimal:
            return _stdlib_number_equal(got, expected, float_spec)
        if type(got) not in (int, float):
            return False
        if isinstance(got, float) and math.isnan(got) or isinstance(expected, float) and math.isnan(expected):
            return False
        if float_spec is not None and float_spec.mode == "float" and (isinstance(got, float) or isinstance(expected, float)):
            if isinstance(got, float) and math.isinf(got) or isinstance(expected, float) and math.isinf(expected):
                return got == expected
            try:
                diff = abs(got - expected)
                return diff <= float_spec.abs_tol or diff <= float_spec.rel_tol * abs(expected)
            except OverflowError:
                # an int past a float's range beside a float: the same rule, on exact rationals
                d = abs(Fraction(got) - Fraction(expected))
                return d <= Fraction(float_spec.abs_tol) or d <= Fraction(float_spec.rel_tol) * abs(Fraction(expected))
        return got == expected
    if expected is None or isinstance(expected, (str, bytes)):
        return type(got) is type(expected) and got == expected
    if isinstance(expected, list):
        ok_type = type(got) is list or (json_expected and type(got) is tuple)
        return ok_type and len(got) == len(expected) and all(
            values_equal(g, e, float_spec, json_expected) for g, e in zip(got, expected, strict=True)
        )
    if isinstance(expected, tuple):
        return type(got) is tuple and len(got) == len(expected) and all(
            values_equal(g, e, float_spec, json_expected) for g, e in zip(got, expected, strict=True)
        )
    if isinstance(expected, (set, frozenset)):
        # Elements are hashable plain values; set equality of those is already strict enough
        # except for bool/int mixing, which the element types rule out below.
        if type(got) is not type(expected) or len(got) != len(expected):
            return False
        return _typed(got) == _typed(expected)
    if isinstance(expected, dict):
        if type(got) is not dict or len(got) != len(expected):
            return False
        gk = {_typed_key(k): k for k in got}
        for k, v in expected.items():
            tk = _typed_key(k)
            if tk not in gk or not values_equal(got[gk[tk]], v, float_spec, json_expected):
                return False
        return True
    return False


def _typed_key(k: Any) -> Any:
    """A set element or dict key as a value whose equality is values_equal's: bool apart from
    int all the way down (a tuple or frozenset inside compared by Python's == said
    `(True, 2) == (1, 2)`: red team rtv), int and float by value, NaN equal to nothing (the
    decoder gives every NaN as the same object, which a set finds by identity)."""
    t = type(k)
    if t is tuple:
        return ("tuple", tuple(_typed_key(x) for x in k))
    if t is frozenset:
        return ("frozenset", frozenset(_typed_key(x) for x in k))
    if t is float and math.isnan(k):
        return ("nan", object())
    return (t.__name__ if t is not int and t is not float else "num", k)


def _typed(s: Any) -> set:
    return {_typed_key(x) for x in s}
