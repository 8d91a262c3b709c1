"""The call style: a Python function is called with each case's arguments; its return value
comes back as tagged JSON (rlvr_harness/call.py `encode`) and is compared outside the sandbox.

Detection and check building: checks/cases.py (a case set of call cases, with a function name,
is this style; LeetCode's literal asserts are converted to it). Harness entry: HARNESS.
Verdict: scoring/cases.py per case, each return value compared here (`compare_output`, strict
equality: scoring/compare.values_equal)."""

from __future__ import annotations

from typing import Any

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.cases import judge_cases, short, spec_of
from rlvr_grade.scoring.compare import MalformedValue, decode, values_equal
from rlvr_grade.types import Check, Execution
from rlvr_harness.wire import ENTRY_OF

NAME = "call"
HARNESS = ENTRY_OF[NAME]  # its harness entry: the harness's one list of styles (rlvr_harness/wire.py)


def compare_output(check: Check, i: int, out: Any) -> tuple[str, str]:
    """Case i's verdict from the value the call returned."""
    if not isinstance(out, dict) or "value" not in out:
        return "WA", f"case {i}: no return value"
    j = check.judge
    want = decode(check.expected[i])  # the dataset's: a bad one is the row's fault (checked when built)
    try:
        got = decode(out["value"])
        spec = spec_of(j) if j.compare == "float" else None
        json_expected = j.json_expected
        ok = values_equal(got, want, spec, json_expected)
        if not ok and j.unwrap_single and isinstance(want, list) and len(want) == 1:
            ok = values_equal(got, want[0], spec, json_expected)
        if ok:
            return "AC", ""
        return "WA", f"case {i}: wrong answer: got {short(_shown(got))}, expected {short(_shown(want))}"
    except (MalformedValue, RecursionError) as exc:
        # Not what the harness's encoder writes (a forged record) or deeper than any honest
        # value: judged wrong, never right.
        return "WA", f"case {i}: the returned value cannot be judged ({exc})"


def _shown(v: Any) -> str:
    try:
        return repr(v)
    except ValueError:  # an int past int->str's 4,300-digit limit, somewhere inside
        return f"<{type(v).__name__} holding an int of more than 4,300 digits>"


def verdict(check: Check, ex: Execution) -> Verdict:
    return judge_cases(check, ex, compare_output)
