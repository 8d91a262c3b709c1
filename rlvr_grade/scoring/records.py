"""Verdicts from per-test records (the asserts and pytest styles). Only tests the grader
expected (derived outside the sandbox, checks/<style>.py) count."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.types import Check, Execution

_OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "skipped_by_mark")
# Test id -> the marks the tests' text puts on it ("xfail", "skip": splitting.pytest_marks).
Marks = dict[str, frozenset[str]]
_NO_MARKS: Marks = {}

# A record's id -> the expected test it belongs to (pytest: "t.py::test_a[1]" -> "t.py::test_a").
RecordKey = Callable[[str], str]


def _same(record_id: str) -> str:
    return record_id


def _by_mark(rec, marks: frozenset[str]):  # noqa: ANN001, ANN202 - a TestRecord either way
    """A record as the tests' own marks make it: an xfail the test file declares, failing as
    declared, is that test's pass (pytest's "xfailed" is success); a skip it declares is no
    verdict at all (None); either outcome without the mark in the text is a failure (a
    candidate cannot mark or skip tests at run time)."""
    if rec.outcome == "xfailed":
        if "xfail" in marks:
            return replace(rec, outcome="passed")
        return replace(rec, outcome="skipped", message=rec.message or f"{rec.id}: xfailed without an xfail mark in the tests")
    if rec.outcome == "skipped_by_mark":
        if marks & {"skip", "xfail"}:
            return None
        return replace(rec, outcome="skipped", message=rec.message or f"{rec.id}: skipped without a skip mark in the tests")
    return rec


def _tally(check: Check, ex: Execution, key: RecordKey,
           marks: Marks = _NO_MARKS) -> tuple[int, int, list[str], bool, bool]:
    """(passed, total, failure messages, any assertion failure, any error) over the expected tests.

    An expected test that was never reported counts as failed. Extra reported tests must pass
    too (pytest parametrization expands one expected id into several). A test the tests' text
    marks skip that was skipped counts in neither (_by_mark)."""
    by_base: dict[str, list] = {}
    skipped_by_mark: set[str] = set()
    for rec in ex.records:
        if rec.outcome not in _OUTCOMES:  # malformed: never a pass
            rec = replace(rec, outcome="error", message=f"{rec.id}: malformed outcome {str(rec.outcome)[:40]!r}")
        base = key(rec.id)
        rec = _by_mark(rec, marks.get(base, frozenset()))
        if rec is None:
            skipped_by_mark.add(base)
            continue
        by_base.setdefault(base, []).append(rec)
    passed = 0
    total = len(check.expected_tests)
    msgs: list[str] = []
    unreported: list[str] = []  # said last: what ended the tests early (an import error) says why
    any_fail = any_error = False
    for tid in check.expected_tests:
        recs = by_base.get(tid, [])
        if recs and all(r.outcome == "passed" for r in recs):
            passed += 1
            continue
        if not recs and tid in skipped_by_mark:
            total -= 1  # every case skipped by the tests' own mark: this test says nothing
            continue
        for r in recs:
            if r.outcome == "failed":
                any_fail = True
            elif r.outcome == "error":
                any_error = True
            elif r.outcome == "skipped":
                any_fail = True
            if r.outcome != "passed" and r.message:
                msgs.append(r.message)
        if not recs:
            unreported.append(f"{tid}: not reported")
    expected = set(check.expected_tests)
    for k, recs in by_base.items():
        if k in expected:
            continue
        for r in recs:
            # A record the grader did not expect (a collection error, a failed setup step, a
            # test the static discovery did not see) can only make the row worse: a failure
            # there is a failure of the row, an unexpected pass counts for nothing.
            if r.outcome == "error":
                any_error = True
            elif r.outcome != "passed":
                any_fail = True
            if r.outcome != "passed":
                msgs.append(r.message or f"{k}: {r.outcome}")
    return passed, total, msgs + unreported, any_fail, any_error


def judge_records(check: Check, ex: Execution, key: RecordKey = _same, marks: Marks = _NO_MARKS) -> Verdict:
    """The verdict of a check whose harness reports one record per test (`marks`: the xfail
    and skip marks of the tests' text, pytest style)."""
    passed, total, msgs, any_fail, any_error = _tally(check, ex, key, marks)
    if total == 0 and check.expected_tests:
        # every test skipped by its own mark: nothing was checked, and nothing is a pass
        return Verdict("fail", 0, 0, "every test was skipped by the tests' own marks")
    if ex.phase_error and ex.phase_error[0] == "compile":
        return Verdict("compile_error", 0, total, ex.phase_error[1])
    if ex.limit_hit == "memory":
        return Verdict("memory_limit", passed, total, "memory limit exceeded")
    if ex.limit_hit in ("cpu", "wall"):
        what = "CPU" if ex.limit_hit == "cpu" else "wall-clock"
        return Verdict("timeout", passed, total, f"{what} time limit exceeded")
    if ex.phase_error:
        kind, msg = ex.phase_error
        if kind == "memory":
            return Verdict("memory_limit", passed, total, msg)
        return Verdict("runtime_error", passed, total, msg)
    if ex.done and passed == total and not any_error and not any_fail:
        return Verdict("pass", passed, total, "")
    first = msgs[0] if msgs else ""
    if not ex.done:
        # The process ended without the harness finishing: an early exit, a crash, a signal.
        how = _how_it_ended(ex)
        return Verdict("runtime_error" if (ex.signal or ex.exit_code) else "fail", passed, total, how)
    if any_error and (not any_fail or _first_bad(check, ex, key) == "error"):
        # the first expected test that did not pass crashed (HumanEval's check() would have
        # stopped there): a crash, even if later asserts merely failed
        return Verdict("runtime_error", passed, total, first)
    return Verdict("fail", passed, total, first or "not every expected test passed")


def _first_bad(check: Check, ex: Execution, key: RecordKey) -> str | None:
    outcomes = {key(r.id): r.outcome for r in ex.records if r.outcome != "passed"}
    for tid in check.expected_tests:
        if tid in outcomes:
            return outcomes[tid]
    return None


def _how_it_ended(ex: Execution) -> str:
    if ex.signal:
        return f"killed by signal {ex.signal} before the tests finished"
    if ex.exit_code:
        tail = ex.stderr.strip().splitlines()[-1:] if ex.stderr.strip() else []
        return (tail[0][:300] if tail else f"exited with code {ex.exit_code}") + " (tests did not finish)"
    return "exited before the tests finished"
