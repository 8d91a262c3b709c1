"""Text that leaves the grader: one rule for every sink (the error column, the cache, the
writers, JUnit XML, the console). Stdlib only: types.py and boundary.py both use it."""

from __future__ import annotations

from typing import Any


def safe_text(value: Any, limit: int | None = None) -> str:
    """`value` as text every sink can store: a str as is when it encodes as UTF-8, else with
    each lone surrogate replaced by U+FFFD (a valid pair is joined into its character); any
    other type by its str(), or its type's name if even that fails. Cut to `limit` characters."""
    if type(value) is not str:
        try:
            value = str(value)
        except Exception:  # noqa: BLE001 - a hostile or broken __str__
            value = f"<{type(value).__name__}>"
        if type(value) is not str:  # a str subclass from __str__
            value = str.__str__(value)
    if limit is not None and len(value) > limit:
        value = value[:limit]
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            value = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value
