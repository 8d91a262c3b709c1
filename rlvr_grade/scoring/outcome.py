"""verdict(): the rules every style shares, then the row's style's own (checks/<style>.py);
score(): the verdict, its reward and the flags, as the Outcome a row is written with."""

from __future__ import annotations

from rlvr_grade.checks.styles import style_of
from rlvr_grade.scoring.base import Verdict, output_limit_error
from rlvr_grade.scoring.rewards import RewardConfig, apply_flags, reward
from rlvr_grade.types import Check, Execution, Outcome


def verdict(check: Check, ex: Execution) -> Verdict:
    total = len(check.expected_tests)  # a stdio/call check expects "case:<i>" for each case
    if ex.tampered:  # the records cannot be believed: none of them counts
        return Verdict("fail", 0, total, ex.tampered)
    if ex.limit_hit == "output":  # nothing after the cap counts, for any style
        return Verdict("fail", 0, total, output_limit_error(check))
    return style_of(check.style).verdict(check, ex)


def score(check: Check, ex: Execution, cfg: RewardConfig, duration_ms: float, flags: tuple[str, ...] = ()) -> Outcome:
    v = verdict(check, ex)
    return apply_flags(Outcome(
        status=v.status,
        reward=reward(v.status, v.passed, v.total, cfg),
        tests_passed=v.passed,
        tests_total=v.total,
        duration_ms=round(duration_ms, 3),
        error=v.error[:500],
        case_verdicts=v.cases,
    ), flags, cfg)
