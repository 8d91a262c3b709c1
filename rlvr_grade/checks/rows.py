"""Reading a row's fields: text that can be written to a sandbox, tests as code, and the
InvalidRow error that names the field (status invalid_input, the message kept)."""

from __future__ import annotations

import json
from typing import Any


class InvalidRow(Exception):
    """The row itself is unusable; becomes status=invalid_input with this message."""


def row_text(row: dict[str, Any], col: str, what: str) -> str:
    if col not in row:
        raise InvalidRow(f"missing column {col!r} ({what})")
    value = row[col]
    if value is None:
        raise InvalidRow(f"{what} column {col!r} is null")
    if not isinstance(value, str):
        raise InvalidRow(f"{what} column {col!r} is {type(value).__name__}, expected a string")
    return unicode_text(value, f"{what} column {col!r}")


def unicode_text(value: str, what: str) -> str:
    """`value` if it is valid Unicode text; a lone surrogate (only a Python caller can pass
    one: JSON and Parquet readers refuse them) cannot be written to the sandbox's files."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidRow(f"{what} is not valid Unicode (a lone surrogate at character {exc.start})") from None
    return value


# What parsing test code can raise besides SyntaxError: null bytes (ValueError), nesting deeper
# than the parser's recursion limit, or more than memory allows.
PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)


def unparsable(exc: BaseException) -> InvalidRow:
    """The invalid_input message for tests that do not parse."""
    if isinstance(exc, SyntaxError):
        return InvalidRow(f"tests do not parse: {exc.msg} (line {exc.lineno})")
    if isinstance(exc, RecursionError):
        return InvalidRow("tests do not parse: nested too deeply")
    if isinstance(exc, MemoryError):
        return InvalidRow("tests do not parse: too big")
    return InvalidRow(f"tests do not parse: {exc}")


def tests_text(value: Any, col: str) -> str:
    """Test code from a column: code, a list of assert lines, or that list as JSON text."""
    if value is None:
        raise InvalidRow(f"tests column {col!r} is null")
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped.startswith("[") and stripped.rstrip().endswith("]"):
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):
                return unicode_text(value, f"tests column {col!r}")
            if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
                return unicode_text("\n".join(parsed) + "\n", f"tests column {col!r}")
        return unicode_text(value, f"tests column {col!r}")
    if isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        return unicode_text("\n".join(value) + "\n", f"tests column {col!r}")
    raise InvalidRow(f"tests column {col!r} is {type(value).__name__}, expected code or a list of asserts")
