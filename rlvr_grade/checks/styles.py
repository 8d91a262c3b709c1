"""The test styles, by name. Each is one module, checks/<style>.py, owning its detection, how
its check is built, its harness entry inside the sandbox (HARNESS, named from the harness's own
list, rlvr_harness/wire.py HARNESS_STYLES, which rlvr_harness/runner.py `run` dispatches by) and
its verdict (`verdict`).
Which style a row gets is decided in checks/build.py. Modules load on first use: a run of
asserts rows never imports the stdio judge."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

STYLES: tuple[str, ...] = ("asserts", "pytest", "stdio", "call")


def style_of(name: str) -> ModuleType:
    """The module of style `name` (raises ValueError for a name that is none)."""
    if name not in STYLES:
        raise ValueError(f"unknown test style {name!r}; the styles are {', '.join(STYLES)}")
    return import_module(f"rlvr_grade.checks.{name}")
