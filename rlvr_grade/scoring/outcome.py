"""outcome_of(): a verdict, its reward and the flags, as the Outcome a row is written with.
Which verdict a row gets (the shared rules, then its style's) is decided by its style, above
scoring: rlvr_grade/checks/styles.py `verdict` and `score`."""

from __future__ import annotations

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.rewards import RewardConfig, apply_flags, reward
from rlvr_grade.types import Outcome


def outcome_of(v: Verdict, cfg: RewardConfig, duration_ms: float, flags: tuple[str, ...] = ()) -> Outcome:
    return apply_flags(Outcome(
        status=v.status,
        reward=reward(v.status, v.passed, v.total, cfg),
        tests_passed=v.passed,
        tests_total=v.total,
        duration_ms=round(duration_ms, 3),
        error=v.error[:500],
        case_verdicts=v.cases,
    ), flags, cfg)
