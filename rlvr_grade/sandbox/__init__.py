"""Sandbox backends behind one small contract (base.Backend), chosen by name."""

from __future__ import annotations

from typing import Any

from rlvr_grade.sandbox.base import Backend

BACKENDS = ("local",)


def make_backend(name: str, concurrency: int, **options: Any) -> Backend:
    """Create the backend registered under `name` (its SDK imported only now)."""
    if name == "local":
        from rlvr_grade.sandbox.local import LocalBackend

        return LocalBackend(concurrency=concurrency, **options)
    raise ValueError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
