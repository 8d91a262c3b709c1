"""Sandbox backends behind one small contract (base.Backend), chosen by name."""

from __future__ import annotations

from typing import Any

from rlvr_grade.sandbox.base import Backend

BACKENDS = ("local", "gvisor", "beam")


def make_backend(name: str, concurrency: int, **options: Any) -> Backend:
    """Create the backend registered under `name` (its SDK imported only now)."""
    if name == "local":
        from rlvr_grade.sandbox.local import LocalBackend

        return LocalBackend(concurrency=concurrency, **options)
    if name == "gvisor":
        from rlvr_grade.sandbox.gvisor import GvisorBackend

        return GvisorBackend(concurrency=concurrency, **options)
    if name == "beam":
        # beam-client itself is imported by BeamBackend.start(), never before.
        from rlvr_grade.sandbox.beam import BeamBackend

        return BeamBackend(concurrency=concurrency, **options)
    raise ValueError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
