"""What every style's verdict returns, and the rules that come before any style's."""

from __future__ import annotations

from typing import NamedTuple

from rlvr_grade.types import Check, Status


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
