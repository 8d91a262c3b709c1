"""The test styles, by name. Each is one module, checks/<style>.py, owning its detection, how
its check is built, its harness entry inside the sandbox (HARNESS, named from the harness's own
list, rlvr_harness/wire.py HARNESS_STYLES, which rlvr_harness/runner.py `run` dispatches by) and
its verdict (`verdict`). A row's verdict and Outcome are decided here (`verdict`, `score`): the
rules every style shares, then its style's, from scoring/'s building blocks.
Which style a row gets is decided in checks/build.py. Modules load on first use: a run of
asserts rows never imports the stdio judge."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from rlvr_grade.scoring.base import Verdict, shared_verdict
from rlvr_grade.scoring.outcome import outcome_of
from rlvr_grade.scoring.rewards import RewardConfig
from rlvr_grade.types import Check, Execution, Outcome

STYLES: tuple[str, ...] = ("asserts", "pytest", "stdio", "call")


def style_of(name: str) -> ModuleType:
    """The module of style `name` (raises ValueError for a name that is none)."""
    if name not in STYLES:
        raise ValueError(f"unknown test style {name!r}; the styles are {', '.join(STYLES)}")
    return import_module(f"rlvr_grade.checks.{name}")


def verdict(check: Check, ex: Execution) -> Verdict:
    """A check's verdict: the rules every style shares (scoring/base.py `shared_verdict`), then
    its style's own (checks/<style>.py `verdict`)."""
    shared = shared_verdict(check, ex)
    return shared if shared is not None else style_of(check.style).verdict(check, ex)


def score(check: Check, ex: Execution, cfg: RewardConfig, duration_ms: float, flags: tuple[str, ...] = ()) -> Outcome:
    """The Outcome a row is written with: its verdict, reward and flags (scoring/outcome.py)."""
    return outcome_of(verdict(check, ex), cfg, duration_ms, flags)
