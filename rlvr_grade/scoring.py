"""Pure: (Check, Execution) -> Outcome. No I/O, no clocks; the same inputs give the same verdict."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rlvr_grade.harness.splitting import base_id
from rlvr_grade.types import GRADER_ERROR_PREFIX, Check, Execution, Outcome, RewardShape, Status

OnSuspicious = Literal["flag", "zero"]
_OUTCOMES = ("passed", "failed", "error", "skipped")


@dataclass(frozen=True)
class RewardConfig:
    shape: RewardShape = "binary"
    bonus: float = 0.1  # with shape "bonus": reward for code that runs without crashing
    # "flag": the static scan only fills the `flags` column; "zero": a flagged row's reward is 0
    # (its status still says what happened; a sandbox_error keeps its null reward).
    on_suspicious: OnSuspicious = "flag"


def _tally(check: Check, ex: Execution) -> tuple[int, int, list[str], bool, bool]:
    """(passed, total, failure messages, any assertion failure, any error) over the expected tests.

    Only tests the grader expected (derived outside the sandbox) count; an expected test that
    was never reported counts as failed. Extra reported tests must pass too (pytest
    parametrization expands one expected id into several)."""
    by_base: dict[str, list] = {}
    for rec in ex.records:
        if rec.outcome not in _OUTCOMES:  # malformed: never a pass
            rec = replace(rec, outcome="error", message=f"{rec.id}: malformed outcome {str(rec.outcome)[:40]!r}")
        key = base_id(rec.id) if check.style == "pytest" else rec.id
        by_base.setdefault(key, []).append(rec)
    passed = 0
    msgs: list[str] = []
    any_fail = any_error = False
    for tid in check.expected_tests:
        recs = by_base.get(tid, [])
        if recs and all(r.outcome == "passed" for r in recs):
            passed += 1
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
            msgs.append(f"{tid}: not reported")
    expected = set(check.expected_tests)
    for key, recs in by_base.items():
        if key in expected:
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
                msgs.append(r.message or f"{key}: {r.outcome}")
    return passed, len(check.expected_tests), msgs, any_fail, any_error


def output_limit_error(check: Check) -> str:
    """The one rule past a check's output cap, for every style: it was stopped at once (the
    worker kills it: sandbox/zygote.py), and it fails. stdio's per-case OLE is this rule."""
    return f"output limit exceeded ({check.limits.output_bytes} bytes)"


def verdict(check: Check, ex: Execution) -> tuple[Status, int, int, str]:
    if ex.tampered:  # the records cannot be believed: none of them counts
        total = len(check.expected) if check.style in ("stdio", "call") else len(check.expected_tests)
        return "fail", 0, total, ex.tampered
    if ex.limit_hit == "output":
        total = len(check.expected) if check.style in ("stdio", "call") else len(check.expected_tests)
        return "fail", 0, total, output_limit_error(check)
    if check.style in ("stdio", "call"):
        from rlvr_grade.judging import judge  # outputs compared with Check.expected, outside

        return judge(check, ex)[:4]
    passed, total, msgs, any_fail, any_error = _tally(check, ex)
    if ex.phase_error and ex.phase_error[0] == "compile":
        return "compile_error", 0, total, ex.phase_error[1]
    if ex.limit_hit == "memory":
        return "memory_limit", passed, total, "memory limit exceeded"
    if ex.limit_hit in ("cpu", "wall"):
        what = "CPU" if ex.limit_hit == "cpu" else "wall-clock"
        return "timeout", passed, total, f"{what} time limit exceeded"
    if ex.phase_error:
        kind, msg = ex.phase_error
        if kind == "memory":
            return "memory_limit", passed, total, msg
        return "runtime_error", passed, total, msg
    if ex.done and passed == total and not any_error and not any_fail:
        return "pass", passed, total, ""
    first = msgs[0] if msgs else ""
    if not ex.done:
        # The process ended without the harness finishing: an early exit, a crash, a signal.
        how = _how_it_ended(ex)
        return ("runtime_error" if (ex.signal or ex.exit_code) else "fail"), passed, total, how
    if any_error and (not any_fail or _first_bad(check, ex) == "error"):
        # the first expected test that did not pass crashed (HumanEval's check() would have
        # stopped there): a crash, even if later asserts merely failed
        return "runtime_error", passed, total, first
    return "fail", passed, total, first or "not every expected test passed"


def _first_bad(check: Check, ex: Execution) -> str | None:
    outcomes = {base_id(r.id) if check.style == "pytest" else r.id: r.outcome for r in ex.records if r.outcome != "passed"}
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


def score(check: Check, ex: Execution, cfg: RewardConfig, duration_ms: float, flags: tuple[str, ...] = ()) -> Outcome:
    status, passed, total, error = verdict(check, ex)
    cases: tuple[str, ...] = ()
    if check.style in ("stdio", "call") and ex.limit_hit != "output" and not ex.tampered:
        from rlvr_grade.judging import judge

        status, passed, total, error, cases = judge(check, ex)
    return apply_flags(Outcome(
        status=status,
        reward=reward(status, passed, total, cfg),
        tests_passed=passed,
        tests_total=total,
        duration_ms=round(duration_ms, 3),
        error=error[:500],
        case_verdicts=cases,
    ), flags, cfg)


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


OutcomeKind = Literal["scored", "invalid", "infra"]
