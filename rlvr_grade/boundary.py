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

import math
from typing import Any

from rlvr_grade.text import safe_text
from rlvr_grade.types import Execution, TestRecord
from rlvr_harness.limits import limit_hit

__all__ = ["MalformedReport", "execution_from_wire", "plain_json_problem", "safe_text"]

# Bounds on a record's output value (a call's tagged return value, a stdio case's output). The
# harness encodes at most 200 levels of Python nesting (harness/call.py MAX_DEPTH), which tagged
# JSON (a tuple is {"$tuple": [...]}) at most doubles.
MAX_OUTPUT_DEPTH = 450
MAX_OUTPUT_NODES = 2_000_000
OUTCOMES = frozenset({"passed", "failed", "error", "skipped"})
PHASES = frozenset({"compile", "runtime", "memory"})


class MalformedReport(ValueError):
    """A sandbox report whose grader-made fields do not have their types: never a verdict on
    the candidate (the row becomes sandbox_error), never the end of the run."""


def plain_json_problem(value: Any, max_depth: int = MAX_OUTPUT_DEPTH, max_nodes: int = MAX_OUTPUT_NODES) -> str | None:
    """Why `value` is not a bounded plain JSON value (None, bool, int, finite-or-not float, str,
    list, dict with str keys), or None when it is. Iterative: depth costs no recursion."""
    stack = [(value, 0)]
    nodes = 0
    while stack:
        v, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            return f"more than {max_nodes} values"
        t = type(v)
        if v is None or t is bool or t is int or t is float or t is str:
            continue
        if depth >= max_depth:
            return f"nested deeper than {max_depth}"
        if t is list:
            stack.extend((x, depth + 1) for x in v)
        elif t is dict:
            for k, x in v.items():
                if type(k) is not str:
                    return "an object key that is not a string"
                stack.append((x, depth + 1))
        else:
            return f"a {t.__name__}, not a JSON value"
    return None


def _int_or_none(resp: dict[str, Any], key: str) -> int | None:
    v = resp.get(key)
    if v is None or type(v) is int:
        return v
    raise MalformedReport(f"malformed sandbox report: {key} is {safe_text(repr(v), 80)}")


def _number(resp: dict[str, Any], key: str) -> float:
    v = resp.get(key, 0.0)
    if type(v) in (int, float) and math.isfinite(v) and v >= 0:
        return float(v)
    raise MalformedReport(f"malformed sandbox report: {key} is {safe_text(repr(v), 80)}")


def _text(resp: dict[str, Any], key: str) -> str:
    v = resp.get(key, "")
    if type(v) is not str:
        raise MalformedReport(f"malformed sandbox report: {key} is a {type(v).__name__}")
    return safe_text(v)


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
    harness/limits.py `limit_hit`). Raises
    MalformedReport when a field the grader's own code writes has the wrong type."""
    if type(resp) is not dict:
        raise MalformedReport(f"malformed sandbox report: a {type(resp).__name__}, not an object")
    phase = _phase(resp.get("phase"))
    cpu = _number(resp, "cpu_s")
    sig = _int_or_none(resp, "signal")
    # The worker's collector stopped it at the output cap (nothing after counts), or not.
    hit = limit_hit(cpu_s=cpu, cpu_limit=limits.cpu_s, sig=sig, killed_for_output=resp.get("killed_for_output") is True,
                    killed_for_wall=bool(resp.get("killed_for_wall")),
                    memory=bool(resp.get("oom") or (phase and phase[0] == "memory")))
    records = resp.get("records", [])
    if type(records) is not list:
        raise MalformedReport(f"malformed sandbox report: records is a {type(records).__name__}")
    tampered = resp.get("channel_tampered", "")
    if type(tampered) is not str:
        raise MalformedReport(f"malformed sandbox report: channel_tampered is a {type(tampered).__name__}")
    return Execution(
        exit_code=_int_or_none(resp, "exit_code"),
        signal=sig,
        stdout=_text(resp, "stdout"),
        stderr=_text(resp, "stderr"),
        cpu_s=cpu,
        wall_s=_number(resp, "wall_s"),
        peak_memory_mb=_number(resp, "peak_memory_mb"),
        limit_hit=hit,
        records=tuple(_record(r) for r in records),
        done=resp.get("done") is True,
        phase_error=phase,
        output_truncated=bool(resp.get("output_truncated")),
        tampered=safe_text(tampered, 500),
    )
