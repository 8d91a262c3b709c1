"""Verdicts from per-case outputs (the stdio and call styles), judged OUTSIDE the sandbox: per
case AC, WA, TLE, MLE, RE, OLE (and "-" for a case not judged), from the outputs the sandbox
returned and the expected values that never entered it. How one output is compared with its
expected value is the style's (checks/stdio.py, checks/call.py: `compare_output`).

Mapping to statuses: WA/OLE -> fail, TLE -> timeout, MLE -> memory_limit, RE -> runtime_error,
a compile failure -> compile_error. With stop-at-first-failure (the default, like judges) the
first failing case decides and later cases are "-"; with run-all every case is judged, the
status is still that of the first failing case, and tests_passed counts every AC (what
`--reward fraction` needs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.compare import CompareSpec
from rlvr_grade.types import Check, Execution, Judge, TestRecord

STATUS_OF = {"WA": "fail", "OLE": "fail", "TLE": "timeout", "MLE": "memory_limit", "RE": "runtime_error", "JE": "invalid_input"}

# (check, case index, the output the sandbox returned for it) -> (verdict, message)
CompareOutput = Callable[[Check, int, Any], "tuple[str, str]"]


@dataclass(frozen=True)
class ValidatorResult:
    """A case's verdict from the output validator (scoring/validator.py). Built there, outside
    the sandbox, never from wire data (the channel only carries JSON types), so a candidate
    cannot forge one."""

    accepted: bool
    message: str = ""
    judge_error: bool = False


def spec_of(j: Judge) -> CompareSpec:
    """The row's comparison (checks/cases.py puts it in the check's Judge)."""
    return CompareSpec(mode=j.compare, abs_tol=j.abs_tol, rel_tol=j.rel_tol)


def case_verdict(check: Check, i: int, rec: TestRecord | None, compare_output: CompareOutput) -> tuple[str, str]:
    """(verdict, message) for case i."""
    if rec is None:
        return "-", ""
    msg = rec.message or ""
    head = msg.split(":", 1)[0]
    if rec.outcome != "passed":
        if head in ("TLE", "MLE", "RE", "OLE"):
            return head, msg
        return "RE", msg or "the case did not run to the end"
    out = rec.output
    if isinstance(out, ValidatorResult):
        if out.judge_error:
            return "JE", f"output validator failed: {out.message}"
        return ("AC", "") if out.accepted else ("WA", f"case {i}: wrong answer" + (f" ({out.message})" if out.message else ""))
    return compare_output(check, i, out)


def short(s: str, n: int = 80) -> str:
    return s if len(s) <= n else s[:n] + "..."


def judge_cases(check: Check, ex: Execution, compare_output: CompareOutput) -> Verdict:
    """The verdict of a check whose harness reports one record per case."""
    total = len(check.expected)
    if ex.phase_error and ex.phase_error[0] == "compile":
        return Verdict("compile_error", 0, total, ex.phase_error[1], ("CE",) * total)
    stop = check.judge.stop_on_fail
    by_id = {r.id: r for r in ex.records}
    verdicts: list[str] = []
    passed = 0
    first: tuple[str, str] | None = None
    for i in range(total):
        if first is not None and stop:
            verdicts.append("-")
            continue
        v, msg = case_verdict(check, i, by_id.get(f"case:{i}"), compare_output)
        if v == "RE" and ex.limit_hit == "memory" and first is None:
            v = "MLE"  # the check's cgroup counted an OOM kill: this crash was that
        verdicts.append(v)
        if v == "AC":
            passed += 1
        elif v != "-" and first is None:
            first = (v, msg)
    cases = tuple(verdicts)
    if ex.limit_hit == "memory" and (first is None or first[0] != "MLE"):
        return Verdict("memory_limit", passed, total, "memory limit exceeded", cases)
    if first is not None:
        return Verdict(STATUS_OF[first[0]], passed, total, first[1], cases)  # type: ignore[arg-type]
    if ex.limit_hit in ("cpu", "wall"):
        return Verdict("timeout", passed, total, "the check's time limit was exceeded", cases)
    if ex.phase_error:
        kind, msg = ex.phase_error
        return Verdict("memory_limit" if kind == "memory" else "runtime_error", passed, total, msg, cases)
    if passed == total and ex.done:
        return Verdict("pass", passed, total, "", cases)
    # Cases missing with no failure seen: the harness did not get to them.
    if not ex.done:
        how = f"killed by signal {ex.signal}" if ex.signal else f"exited with code {ex.exit_code}"
        return Verdict("runtime_error" if (ex.signal or ex.exit_code) else "fail", passed, total, f"the run ended early ({how})", cases)
    return Verdict("fail", passed, total, "not every case was run", cases)
