"""Kattis/ICPC output validators for stdio rows: a second check in the same backend, never in
the candidate's sandbox. Its verdict per case replaces the case's output before judging
(scoring/cases.py reads a ValidatorResult instead of comparing)."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import replace
from typing import Any

from rlvr_grade.scoring.cases import ValidatorResult
from rlvr_grade.types import Check, Execution, Limits, Validator
from rlvr_harness.stdio import unpack_output
from rlvr_harness.wire import CaseOptions, ValidatedCase, ValidateOptions


def validator_check(check: Check, ex: Execution) -> Check | None:
    """The second check that runs the output validator over every case that ran cleanly. The
    answers and the candidate's outputs enter *this* sandbox, which runs no candidate code."""
    v = check.output_validator
    assert v is not None and isinstance(check.options, CaseOptions)  # api.py runs this for such a check only
    inputs = check.options.inputs
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
        cases.append(ValidatedCase(i=i, input=inputs[i], answer=check.expected[i], output=out))
    if not cases:
        return None
    key = _validator_key(v)
    with _LOCK:
        binary = _BINARIES.get(key)
    return Check(
        style="validate",  # type: ignore[arg-type]
        program="",
        tests="",
        expected_tests=(),
        # The validator's CPU, memory and processes; the rest the defaults (what it always was).
        limits=Limits(cpu_s=v.limits.cpu_s, memory_mb=v.limits.memory_mb, processes=v.limits.processes),
        language="python",
        options=ValidateOptions(language=v.language, main=v.main, files=v.files, args=v.args, cases=tuple(cases),
                                case_cpu_s=v.case_cpu_s, binary=binary or "", send_binary=not binary),
    )


# Compiled C/C++ validators, kept per process so each is built once per run, not once per row.
_BINARIES: dict[str, str] = {}
_LOCK = threading.Lock()


def _validator_key(v: Validator) -> str:
    blob = json.dumps([v.language, v.main, sorted(dict(v.files).items())], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def apply_validation(check: Check, ex: Execution, vex: Execution) -> Execution:
    """Replace each validated case's output by a ValidatorResult (trusted: built here)."""
    results: dict[str, ValidatorResult] = {}
    compile_failed = vex.phase_error is not None
    for r in vex.records:
        if r.id == "binary":
            if isinstance(r.output, str) and r.outcome == "passed":
                with _LOCK:
                    if check.output_validator is not None:
                        _BINARIES.setdefault(_validator_key(check.output_validator), r.output)
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
