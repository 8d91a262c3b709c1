"""What every style's verdict returns, and the rules that come before any style's."""

from __future__ import annotations

from typing import NamedTuple

from rlvr_grade.types import Check, Execution, Status


class Verdict(NamedTuple):
    """A check's verdict before the reward: status, tests passed out of total, the first
    failure's message, and (stdio/call) one verdict per case: AC, WA, TLE, MLE, RE, OLE, CE, JE
    or "-" for a case not judged."""

    status: Status
    passed: int
    total: int
    error: str
    cases: tuple[str, ...] = ()


def output_limit_error(check: Check) -> str:
    """The one rule past a check's output cap, for every style: it was stopped at once (the
    worker kills it: sandbox/zygote.py), and it fails. stdio's per-case OLE is this rule."""
    return f"output limit exceeded ({check.limits.output_bytes} bytes)"


def shared_verdict(check: Check, ex: Execution) -> Verdict | None:
    """The rules every style shares, before its own (checks/styles.py `verdict`): records a check
    tampered with count for nothing, and nothing after the output cap counts. None: the style
    decides."""
    total = len(check.expected_tests)  # a stdio/call check expects "case:<i>" for each case
    if ex.tampered:  # the records cannot be believed: none of them counts
        return Verdict("fail", 0, total, ex.tampered)
    if ex.limit_hit == "output":  # nothing after the cap counts, for any style
        return Verdict("fail", 0, total, output_limit_error(check))
    return None
