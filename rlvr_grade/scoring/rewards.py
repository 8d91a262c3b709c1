"""Status -> reward, the static scan's flags policy, and the outcomes that need no verdict
(an unusable row, a failed sandbox, a grader bug)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rlvr_grade.types import GRADER_ERROR_PREFIX, Outcome, RewardShape, Status

OnSuspicious = Literal["flag", "zero"]


@dataclass(frozen=True)
class RewardConfig:
    shape: RewardShape = "binary"
    bonus: float = 0.1  # with shape "bonus": reward for code that runs without crashing
    # "flag": the static scan only fills the `flags` column; "zero": a flagged row's reward is 0
    # (its status still says what happened; a sandbox_error keeps its null reward).
    on_suspicious: OnSuspicious = "flag"


def reward(status: Status, passed: int, total: int, cfg: RewardConfig) -> float | None:
    if status == "sandbox_error":
        return None
    if status == "pass":
        return 1.0
    if cfg.shape == "fraction":
        return passed / total if total else 0.0
    if cfg.shape == "bonus":
        ran_clean = status == "fail"  # ran to the end without crashing, but some tests failed
        return cfg.bonus if ran_clean else 0.0
    return 0.0


def apply_flags(outcome: Outcome, flags: tuple[str, ...], cfg: RewardConfig) -> Outcome:
    """Attach the static scan's flags; with on_suspicious="zero" a flagged reward becomes 0."""
    if not flags:
        return outcome
    new_reward = outcome.reward
    if cfg.on_suspicious == "zero" and outcome.reward is not None:
        new_reward = 0.0
    return replace(outcome, flags=tuple(flags), reward=new_reward)


def invalid(message: str) -> Outcome:
    return Outcome(status="invalid_input", reward=0.0, tests_passed=0, tests_total=0, duration_ms=0.0, error=message[:500])


def infrastructure_failure(message: str) -> Outcome:
    return Outcome(status="sandbox_error", reward=None, tests_passed=0, tests_total=0, duration_ms=0.0, error=message[:500])


def grader_failure(exc: BaseException) -> Outcome:
    """A bug of the grader on one row: sandbox_error (never a verdict on the candidate) with
    the traceback's last line, marked so the summary counts it apart."""
    import traceback

    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return replace(infrastructure_failure(GRADER_ERROR_PREFIX + last), grader_error=True)
