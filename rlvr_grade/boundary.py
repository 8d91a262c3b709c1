"""What crosses into the grader is checked here, once.

Two kinds of data reach the grader from outside its control: a sandbox's report (anything a
candidate managed to write, or an inner runner we do not fully trust, sent back as JSON) and
text that leaves the grader again (the `error` column, the cache, the writers, JUnit XML, the
console). The rules:

- `safe_text` (rlvr_grade/text.py): any value -> a str that every sink can store (no lone surrogates: SQLite,
  orjson and Parquet all refuse them), optionally capped. `Outcome` applies it to its
  `error`, so no Outcome anywhere carries unstorable text.
- `execution_from_wire`: a report -> Execution. Fields the grader's own worker produces must
  have their types (anything else is a bug or a subverted runner: `MalformedReport`, which the
  grader turns into that row's `sandbox_error`); what a candidate can reach (test records, their
  messages and outputs, stdout/stderr) is made safe and fails closed: a record that is not one of
  the four outcomes, or whose output is deeper or bigger than any honest result, becomes a
  failed record, never a pass.
"""

from __future__ import annotations

from typing import Any

from rlvr_grade.text import safe_text
from rlvr_grade.types import Execution, TestRecord
from rlvr_harness.limits import limit_hit
from rlvr_harness.wire import CheckReport, WireError, plain_json_problem

__all__ = ["MalformedReport", "execution_from_wire", "plain_json_problem", "safe_text"]

OUTCOMES = frozenset({"passed", "failed", "error", "skipped", "xfailed", "skipped_by_mark"})
PHASES = frozenset({"compile", "runtime", "memory"})


class MalformedReport(WireError):
    """A sandbox report whose grader-made fields do not have their types: never a verdict on
    the candidate (the row becomes sandbox_error), never the end of the run."""


def _record(r: Any) -> TestRecord:
    """One test record; fails closed (outcome "error") when it is anything but well formed."""
    if type(r) is not dict:
        return TestRecord(id=safe_text(r, 200), outcome="error", message="malformed result record")
    rid = safe_text(r.get("id"), 1000)
    outcome = r.get("outcome")
    message = safe_text(r.get("message", ""), 8192)
    output = r.get("output")
    why = None
    if type(outcome) is not str or outcome not in OUTCOMES:
        why = f"malformed result record (outcome {safe_text(repr(outcome), 40)})"
    elif output is not None:
        problem = plain_json_problem(output)
        if problem is not None:
            why = f"result value not judged: {problem}"
    if why is not None:
        return TestRecord(id=rid, outcome="error", message=why)
    return TestRecord(id=rid, outcome=outcome, message=message, output=output)


def _phase(value: Any) -> tuple[str, str] | None:
    if not value:
        return None
    if type(value) in (list, tuple) and len(value) == 2:
        kind, msg = value
        kind = kind if type(kind) is str and kind in PHASES else "runtime"  # an unknown phase is a crash, never a pass
        return kind, safe_text(msg, 8192)
    return "runtime", "malformed phase report"


def execution_from_wire(resp: Any, limits: Any) -> Execution:
    """A worker's raw report -> Execution, deciding which limit (if any) was hit (the one rule,
    rlvr_harness/limits.py `limit_hit`). The report is read as a rlvr_harness/wire.py CheckReport, whose
    grader-made fields must have their types: else MalformedReport, naming the field."""
    try:
        report = CheckReport.from_wire(resp)
    except WireError as exc:
        raise MalformedReport(str(exc)) from None
    phase = _phase(report.phase)
    # The worker's collector stopped it at the output cap (nothing after counts), or not.
    hit = limit_hit(cpu_s=report.cpu_s, cpu_limit=limits.cpu_s, sig=report.signal,
                    killed_for_output=report.killed_for_output, killed_for_wall=report.killed_for_wall,
                    memory=report.oom or bool(phase and phase[0] == "memory"))
    return Execution(
        exit_code=report.exit_code,
        signal=report.signal,
        stdout=safe_text(report.stdout),
        stderr=safe_text(report.stderr),
        cpu_s=report.cpu_s,
        wall_s=report.wall_s,
        peak_memory_mb=report.peak_memory_mb,
        limit_hit=hit,
        records=tuple(_record(r) for r in report.records),
        done=report.done,
        phase_error=phase,
        output_truncated=report.output_truncated,
        tampered=safe_text(report.channel_tampered, 500),
    )
