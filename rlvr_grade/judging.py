"""Judging stdio and call checks OUTSIDE the sandbox: per-case verdicts (AC, WA, TLE, MLE, RE,
OLE, and "-" for a case not judged) and the row's status, from the outputs the sandbox
returned and the expected values that never entered it.

Mapping to statuses: WA/OLE -> fail, TLE -> timeout, MLE -> memory_limit, RE -> runtime_error,
a compile failure -> compile_error. With stop-at-first-failure (the default, like judges) the
first failing case decides and later cases are "-"; with run-all every case is judged, the
status is still that of the first failing case, and tests_passed counts every AC (what
`--reward fraction` needs).

A custom output validator (Kattis/ICPC protocol) runs as a second check in the same backend,
never in the candidate's sandbox: see `validate`."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, replace
from typing import Any

from rlvr_grade.compare import CompareSpec, MalformedValue, decode, outputs_equal, values_equal
from rlvr_grade.harness.stdio import unpack_output
from rlvr_grade.types import Check, Execution, Limits, Status, TestRecord

STATUS_OF = {"WA": "fail", "OLE": "fail", "TLE": "timeout", "MLE": "memory_limit", "RE": "runtime_error", "JE": "invalid_input"}


@dataclass(frozen=True)
class ValidatorResult:
    """A case's verdict from the output validator. Built here, outside the sandbox, never
    from wire data (the channel only carries JSON types), so a candidate cannot forge one."""

    accepted: bool
    message: str = ""
    judge_error: bool = False


def judge_options(check: Check) -> dict[str, Any]:
    return dict(check.options).get("judge", {})


def _spec(j: dict[str, Any]) -> CompareSpec:
    return CompareSpec(mode=j.get("compare", "tokens"), abs_tol=float(j.get("abs_tol", 1e-6)), rel_tol=float(j.get("rel_tol", 1e-6)))


def case_verdict(check: Check, i: int, rec: TestRecord | None) -> tuple[str, str]:
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
    j = judge_options(check)
    expected = check.expected[i]
    if check.style == "stdio":
        out = unpack_output(out)
        if out is None:
            return "WA", f"case {i}: no output"
        if outputs_equal(out, expected, _spec(j)):
            return "AC", ""
        return "WA", f"case {i}: wrong answer: got {_short(out)!r}, expected {_short(expected)!r}"
    # call
    if not isinstance(out, dict) or "value" not in out:
        return "WA", f"case {i}: no return value"
    want = decode(expected)  # the dataset's: a bad one is the row's fault, not the candidate's
    try:
        got = decode(out["value"])
        spec = _spec(j) if j.get("compare") == "float" else None
        json_expected = bool(j.get("json_expected", True))
        ok = values_equal(got, want, spec, json_expected)
        if not ok and j.get("unwrap_single") and isinstance(want, list) and len(want) == 1:
            ok = values_equal(got, want[0], spec, json_expected)
        if ok:
            return "AC", ""
        return "WA", f"case {i}: wrong answer: got {_short(repr(got))}, expected {_short(repr(want))}"
    except (MalformedValue, RecursionError) as exc:
        # Not what the harness's encoder writes (a forged record) or deeper than any honest
        # value: judged wrong, never right.
        return "WA", f"case {i}: the returned value cannot be judged ({exc})"


def _short(s: str, n: int = 80) -> str:
    return s if len(s) <= n else s[:n] + "..."


def judge(check: Check, ex: Execution) -> tuple[Status, int, int, str, tuple[str, ...]]:
    """(status, passed, total, error, per-case verdicts) for a stdio/call check."""
    total = len(check.expected)
    if ex.phase_error and ex.phase_error[0] == "compile":
        return "compile_error", 0, total, ex.phase_error[1], ("CE",) * total
    j = judge_options(check)
    stop = bool(j.get("stop_on_fail", True))
    by_id = {r.id: r for r in ex.records}
    verdicts: list[str] = []
    passed = 0
    first: tuple[str, str] | None = None
    for i in range(total):
        if first is not None and stop:
            verdicts.append("-")
            continue
        v, msg = case_verdict(check, i, by_id.get(f"case:{i}"))
        if v == "RE" and ex.limit_hit == "memory" and first is None:
            v = "MLE"  # the check's cgroup counted an OOM kill: this crash was that
        verdicts.append(v)
        if v == "AC":
            passed += 1
        elif v != "-" and first is None:
            first = (v, msg)
    if ex.limit_hit == "memory" and (first is None or first[0] != "MLE"):
        return "memory_limit", passed, total, "memory limit exceeded", tuple(verdicts)
    if first is not None:
        return STATUS_OF[first[0]], passed, total, first[1], tuple(verdicts)  # type: ignore[return-value]
    if ex.limit_hit in ("cpu", "wall"):
        return "timeout", passed, total, "the check's time limit was exceeded", tuple(verdicts)
    if ex.phase_error:
        kind, msg = ex.phase_error
        return ("memory_limit" if kind == "memory" else "runtime_error"), passed, total, msg, tuple(verdicts)
    if passed == total and ex.done:
        return "pass", passed, total, "", tuple(verdicts)
    # Cases missing with no failure seen: the harness did not get to them.
    if not ex.done:
        how = f"killed by signal {ex.signal}" if ex.signal else f"exited with code {ex.exit_code}"
        return ("runtime_error" if (ex.signal or ex.exit_code) else "fail"), passed, total, f"the run ended early ({how})", tuple(verdicts)
    return "fail", passed, total, "not every case was run", tuple(verdicts)


# -- output validators -------------------------------------------------------------------------
def needs_validator(check: Check) -> bool:
    return check.style == "stdio" and bool(judge_options(check).get("validator"))


def validator_check(check: Check, ex: Execution) -> Check | None:
    """The second check that runs the output validator over every case that ran cleanly. The
    answers and the candidate's outputs enter *this* sandbox, which runs no candidate code."""
    j = judge_options(check)
    v = j["validator"]
    inputs = dict(check.options).get("inputs", [])
    cases = []
    for rec in ex.records:
        out = unpack_output(rec.output)
        if rec.outcome != "passed" or out is None or not rec.id.startswith("case:"):
            continue
        try:
            i = int(rec.id.split(":", 1)[1])
        except ValueError:
            continue
        if not 0 <= i < len(check.expected):
            continue
        cases.append({"i": i, "input": inputs[i], "answer": check.expected[i], "output": out})
    if not cases:
        return None
    lim = Limits(**v["limits"]) if v.get("limits") else Limits(cpu_s=90.0, memory_mb=1024, processes=64)
    key = _validator_key(v)
    with _LOCK:
        binary = _BINARIES.get(key)
    build = {"binary": binary} if binary else {"send_binary": True}
    return Check(
        style="validate",  # type: ignore[arg-type]
        program="",
        tests="",
        expected_tests=(),
        limits=lim,
        language="python",
        options=(("validator", {k: v[k] for k in ("language", "main", "args") if k in v}), ("cases", cases),
                 ("case_cpu_s", float(v.get("case_cpu_s", 10.0))), ("files", v["files"]), *build.items()),
    )


# Compiled C/C++ validators, kept per process so each is built once per run, not once per row.
_BINARIES: dict[str, str] = {}
_LOCK = threading.Lock()


def _validator_key(v: dict[str, Any]) -> str:
    blob = json.dumps([v.get("language"), v.get("main"), sorted(v.get("files", {}).items())], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def apply_validation(check: Check, ex: Execution, vex: Execution) -> Execution:
    """Replace each validated case's output by a ValidatorResult (trusted: built here)."""
    results: dict[str, ValidatorResult] = {}
    compile_failed = vex.phase_error is not None
    for r in vex.records:
        if r.id == "binary":
            if isinstance(r.output, str) and r.outcome == "passed":
                with _LOCK:
                    _BINARIES.setdefault(_validator_key(judge_options(check)["validator"]), r.output)
            continue
        msg = r.message or ""
        if r.outcome == "passed":
            results[r.id] = ValidatorResult(True, msg)
        elif msg.startswith("WA"):
            results[r.id] = ValidatorResult(False, msg[3:].strip(" :"))
        else:
            results[r.id] = ValidatorResult(False, msg, judge_error=True)
    recs = []
    for rec in ex.records:
        if rec.outcome == "passed" and unpack_output(rec.output) is not None:
            res = results.get(rec.id)
            if res is None:
                why = vex.phase_error[1] if compile_failed else "the validator did not judge this case"
                res = ValidatorResult(False, why, judge_error=True)
            rec = replace(rec, output=res)
        recs.append(rec)
    return replace(ex, records=tuple(recs))


def validate(backend: Any, check: Check, ex: Execution) -> Execution:
    """Run the output validator for `check` in `backend` (a SandboxError propagates: it is an
    infrastructure failure, retried like any other)."""
    vcheck = validator_check(check, ex)
    if vcheck is None:
        return ex
    vex = backend.run(vcheck)
    return apply_validation(check, ex, vex)
