"""The stdio style: a program (Python, C, C++, Java, JavaScript) reads each case's input on
stdin; what it prints is compared with the expected output outside the sandbox.

Detection and check building: checks/cases.py (the case layouts datasets ship; a case set of
stdin cases is this style). Harness entry: HARNESS, one process per case (rlvr_harness/stdio.py).
Verdict: scoring/cases.py per case, each output compared here (`compare_output`, by the row's
mode: scoring/compare.outputs_equal), or by the problem's output validator (scoring/validator.py)."""

from __future__ import annotations

from typing import Any

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.cases import judge_cases, short, spec_of
from rlvr_grade.scoring.compare import outputs_equal
from rlvr_grade.types import Check, Execution
from rlvr_harness.stdio import unpack_output
from rlvr_harness.wire import ENTRY_OF

NAME = "stdio"
HARNESS = ENTRY_OF[NAME]  # its harness entry: the harness's one list of styles (rlvr_harness/wire.py)


def compare_output(check: Check, i: int, out: Any) -> tuple[str, str]:
    """Case i's verdict from the text the program printed (packed by the harness)."""
    got = unpack_output(out)
    if got is None:
        return "WA", f"case {i}: no output"
    expected = check.expected[i]
    if outputs_equal(got, expected, spec_of(check.judge)):
        return "AC", ""
    return "WA", f"case {i}: wrong answer: got {short(got)!r}, expected {short(expected)!r}"


def verdict(check: Check, ex: Execution) -> Verdict:
    return judge_cases(check, ex, compare_output)
