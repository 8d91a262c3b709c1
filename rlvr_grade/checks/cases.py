"""Test cases for the stdio and call styles, parsed from the layouts datasets ship.

stdio (program reads stdin, prints the answer)
    [{"input": "...", "output": "..."}, ...]                 our own layout (list or JSON string)
    {"inputs": [...], "outputs": [...]}                       APPS / TACO `input_output`
    {"input": [...], "output": [...]}                         CodeContests public/private_tests
    [{"input", "output", "testtype": "stdin"}, ...]            LiveCodeBench
call (a function is called; its return value is compared)
    [{"args": [...], "kwargs": {...}, "output": value}, ...]  our own layout (+ fn_name)
    {"inputs": [[args...]], "outputs": [value], "fn_name": f}  APPS / TACO call-based
    [{"input": "<json per line>", "output": "<json>", "testtype": "functional"}]  LiveCodeBench
    LeetCode `def check(candidate): assert candidate(...) == ...; check(Solution().f)`
                                                                converted by `leetcode_cases`

Expected values are kept here, outside the sandbox; only inputs/arguments go in.

Building a stdio or call check (`build`): the check's payload carries the program, the
language and its CaseOptions (rlvr_harness/wire.py: the case *inputs* and the run limits); the
expected outputs go to Check.expected and how they are compared to Check.judge, neither of
which leaves the grader. Limits: `--timeout` is the row's CPU budget for running cases;
`case_timeout` is the CPU limit of one case; compiling has its own allowance on top
(languages.COMPILE_CPU_S), and each language's runtime adjustments (languages.py) are added to
the check's memory and process limits."""

from __future__ import annotations

import ast
import decimal
import json
from dataclasses import dataclass, replace
from typing import Any

from rlvr_grade.checks import asserts
from rlvr_grade.checks.options import CheckOptions
from rlvr_grade.checks.rows import InvalidRow, tests_text
from rlvr_grade.scoring.compare import DEFAULT_STDIO_MODE, MalformedValue, decode, parse_mode
from rlvr_grade.types import Check, Judge, Rollout
from rlvr_harness import languages
from rlvr_harness.limits import cases_check_wall_s
from rlvr_harness.splitting import parse_locked
from rlvr_harness.values import BIG_BITS, NotPlain, encode
from rlvr_harness.wire import CallCase, CaseOptions


class CaseError(ValueError):
    """The tests value has no usable cases; the message names what is wrong."""


@dataclass(frozen=True)
class CaseSet:
    """Cases of one row. stdio: inputs are strings; call: inputs are {"args", "kwargs"}
    (tagged JSON). `outputs` are the expected values (tagged JSON for call)."""

    kind: str  # "stdio" | "call"
    inputs: tuple[Any, ...]
    outputs: tuple[Any, ...]
    fn_name: str | None = None
    layout: str = "cases"
    # APPS/TACO wrap a call's expected return in a one-element list ([[1, 2]] for [1, 2]);
    # their own checker accepts either form, so we do too — for that layout only.
    unwrap_single: bool = False
    # Expected values from JSON have no tuples: a returned tuple may match an expected list.
    json_expected: bool = True


def _json_int(digits: str) -> Any:
    """An integer literal of the cases' JSON. Past int()'s 4,300-digit limit for text (a
    factorial's digits) it is read through Decimal, which has none, and kept as the tagged
    value the harness sends such an int back as (values.BIG_BITS), which JSON can carry."""
    return encode(int(digits) if len(digits) <= 4000 else int(decimal.Decimal(digits)))


def _loads(value: Any, what: str) -> Any:
    if isinstance(value, (bytes, bytearray)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise CaseError(f"{what} is bytes that are not UTF-8 text") from None
    if isinstance(value, str):
        try:
            return json.loads(value, parse_int=_json_int)
        except json.JSONDecodeError as exc:
            raise CaseError(f"{what} is not valid JSON ({exc.msg} at char {exc.pos})") from None
        except (ValueError, RecursionError):
            raise CaseError(f"{what} is not valid JSON (nested too deeply or not text)") from None
    return value


def _as_text(v: Any, what: str) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "\n".join(v) + "\n"  # some APPS rows split an input into lines
    if isinstance(v, dict) and len(v) == 1 and "$int" in v:  # a JSON number past 4,300 digits (_json_int)
        try:
            v = decode(v)
        except MalformedValue:
            pass
    if type(v) is int and v.bit_length() > BIG_BITS:
        return str(decimal.Decimal(v))  # str() refuses an int past 4,300 digits; Decimal has no limit
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    raise CaseError(f"{what} is {type(v).__name__}, expected text")


def looks_like_cases(value: Any) -> bool:
    """Cheap test for auto style detection: a dict/list of case records (or its JSON)."""
    if isinstance(value, str):
        s = value.lstrip()
        if not s.startswith(("{", "[")):
            return False
        try:
            value = json.loads(value, parse_int=_json_int)
        except (ValueError, RecursionError):
            return False
    if isinstance(value, dict):
        return bool({"inputs", "input"} & set(value)) and bool({"outputs", "output"} & set(value))
    if isinstance(value, (list, tuple)) and value and all(isinstance(x, dict) for x in value):
        first = value[0]
        return ("input" in first or "args" in first) and ("output" in first or "expected" in first)
    return False


def parse_cases(value: Any, what: str = "tests", fn_name: str | None = None) -> CaseSet:
    """Any supported layout -> CaseSet. `fn_name` (from a column or option) makes cases of a
    layout that can be either kind call-based."""
    if value is None:
        raise CaseError(f"{what} is null")
    tagged = isinstance(value, (str, bytes, bytearray))  # JSON text is read as tagged JSON (_json_int)
    value = _loads(value, what)
    if isinstance(value, dict):
        return _parse_dict(value, what, fn_name, tagged)
    if isinstance(value, (list, tuple)):
        return _parse_list(list(value), what, fn_name, tagged)
    raise CaseError(f"{what} is {type(value).__name__}, expected a list of cases or an inputs/outputs object")


def _arguments(value: Any, tagged: bool, what: str) -> Any:
    """A call's arguments as the harness reads them (tagged JSON, values.decode). Read from
    JSON text they are that already; given as Python values (the API, a Parquet row) they are
    encoded like a return value: an int past 4,300 digits (JSON text cannot hold it), a tuple or
    a set arrive as what they are. Anything not plain is the row's fault, named here."""
    if tagged:
        return value
    try:
        return encode(value)
    except NotPlain as exc:  # its message speaks of a return value
        raise CaseError(f"{what}: {str(exc).replace('returned a', 'holds a', 1)}") from None
    except RecursionError:
        raise CaseError(f"{what} is nested too deeply") from None


def _parse_dict(d: dict, what: str, fn_name: str | None, tagged: bool = True) -> CaseSet:
    if "inputs" in d and "outputs" in d:  # APPS / TACO
        ins, outs = d["inputs"], d["outputs"]
        layout = "apps"
        fn = d.get("fn_name") or fn_name
    elif "input" in d and "output" in d:  # CodeContests
        ins, outs = d["input"], d["output"]
        layout = "codecontests"
        fn = fn_name if d.get("fn_name") is None else d["fn_name"]
    else:
        raise CaseError(f"{what} has keys {sorted(d)[:6]}, expected inputs/outputs or input/output")
    if not isinstance(ins, list) or not isinstance(outs, list):
        raise CaseError(f"{what}: inputs and outputs must be lists")
    if len(ins) != len(outs):
        raise CaseError(f"{what}: {len(ins)} inputs but {len(outs)} outputs")
    if not ins:
        raise CaseError(f"{what} has no cases")
    if fn:
        cases = []
        for i, args in enumerate(ins):
            if isinstance(args, str):  # some rows store each argument list as JSON text
                args = _loads(args, f"{what} input {i}")
            elif not tagged:
                args = _arguments(args, False, f"{what} input {i}")
            if not isinstance(args, list):
                args = [args]
            cases.append({"args": args, "kwargs": {}})
        return CaseSet("call", tuple(cases), tuple(outs), str(fn), layout, unwrap_single=(layout == "apps"))
    return CaseSet(
        "stdio",
        tuple(_as_text(x, f"{what} input {i}") for i, x in enumerate(ins)),
        tuple(_as_text(x, f"{what} output {i}") for i, x in enumerate(outs)),
        None,
        layout,
    )


def _parse_list(items: list, what: str, fn_name: str | None, tagged: bool = True) -> CaseSet:
    if not items:
        raise CaseError(f"{what} has no cases")
    ins: list[Any] = []
    outs: list[Any] = []
    kinds = set()
    layout = "cases"
    for i, c in enumerate(items):
        if not isinstance(c, dict):
            raise CaseError(f"{what} case {i} is {type(c).__name__}, expected an object")
        out_key = "output" if "output" in c else "expected" if "expected" in c else None
        if out_key is None:
            raise CaseError(f"{what} case {i} has no 'output'")
        testtype = c.get("testtype")
        if testtype is not None:
            layout = "livecodebench"
        if "args" in c or "kwargs" in c or testtype == "functional":
            kinds.add("call")
            if testtype == "functional":  # LiveCodeBench: one JSON value per line, JSON output
                args = [_loads(line, f"{what} case {i} input") for line in str(c.get("input", "")).splitlines() if line.strip()]
                ins.append({"args": args, "kwargs": {}})
                outs.append(_loads(c[out_key], f"{what} case {i} output"))
            else:
                args, kwargs = c.get("args", []), c.get("kwargs", {})
                if not isinstance(args, list) or not isinstance(kwargs, dict):
                    raise CaseError(f"{what} case {i}: args must be a list and kwargs an object")
                ins.append({"args": _arguments(args, tagged, f"{what} case {i} args"),
                            "kwargs": _arguments(kwargs, tagged, f"{what} case {i} kwargs")})
                outs.append(c[out_key])
        else:
            if "input" not in c:
                raise CaseError(f"{what} case {i} has no 'input'")
            kinds.add("stdio")
            ins.append(_as_text(c["input"], f"{what} case {i} input"))
            outs.append(_as_text(c[out_key], f"{what} case {i} output"))
    if len(kinds) > 1:
        raise CaseError(f"{what} mixes stdin and functional cases")
    kind = kinds.pop()
    if kind == "call" and not fn_name:
        raise CaseError(f"{what} has call cases but no function name (set --fn-name or a fn_name column)")
    return CaseSet(kind, tuple(ins), tuple(outs), fn_name if kind == "call" else None, layout)


# -- LeetCode ---------------------------------------------------------------------------------
def leetcode_cases(tests: Any) -> CaseSet | None:
    """`def check(candidate): assert candidate(<literals>) == <literal> ...` followed by
    `check(Solution().name)` -> call cases, or None when any statement is not of that form (the
    row then runs as asserts). The expected literal is Python, so tuples stay tuples."""

    if isinstance(tests, dict):
        tests = tests.get("functional")
    if not isinstance(tests, str):
        return None
    try:
        tree = parse_locked(tests, "<tests>")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # the row runs as asserts, whose parse says what is wrong
    check_fn = None
    fn_name = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "check":
            check_fn = node
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            if (isinstance(call.func, ast.Name) and call.func.id == "check" and len(call.args) == 1
                    and isinstance(call.args[0], ast.Attribute)
                    and isinstance(call.args[0].value, ast.Call)
                    and isinstance(call.args[0].value.func, ast.Name)
                    and call.args[0].value.func.id == "Solution"):
                fn_name = call.args[0].attr
            else:
                return None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        else:
            return None
    if check_fn is None or fn_name is None or len(check_fn.args.args) != 1:
        return None
    cand = check_fn.args.args[0].arg
    ins, outs = [], []
    for stmt in check_fn.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if not (isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare)
                and len(stmt.test.ops) == 1 and isinstance(stmt.test.ops[0], ast.Eq)):
            return None
        left, right = stmt.test.left, stmt.test.comparators[0]
        if not (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == cand):
            return None
        try:
            args = [ast.literal_eval(a) for a in left.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in left.keywords if k.arg}
            expected = ast.literal_eval(right)
            if len(kwargs) != len(left.keywords):
                return None
            ins.append({"args": encode(args), "kwargs": encode(kwargs)})
            outs.append(encode(expected))
        except (ValueError, TypeError, SyntaxError, NotPlain, RecursionError):
            return None
    if not ins:
        return None
    return CaseSet("call", tuple(ins), tuple(outs), fn_name, "leetcode", json_expected=False)


# -- building the check -----------------------------------------------------------------------
# LeetCode solutions use typing names unimported, and ListNode/TreeNode helpers.
LEETCODE_SETUP = """from typing import *
import collections, heapq, itertools, functools, math, bisect, string, re
from collections import *
from heapq import *
from itertools import *
from functools import *
from math import *
from bisect import *
from string import *

class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next

class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
"""
HARNESS_SLACK_S = 1.0  # CPU the harness itself spends around the cases (forks, writing inputs)


def _row_value(row: dict[str, Any], col: str, default: Any) -> Any:
    v = row.get(col)
    return default if v is None or v == "" else v


def _row_text(row: dict[str, Any], col: str, default: Any) -> Any:
    """A per-row text setting (language, compare): the column's string, else `default`."""
    v = _row_value(row, col, default)
    if v is not None and not isinstance(v, str):
        raise ValueError(f"expected text, got {type(v).__name__}")
    return v


def _cases(rollout: Rollout, opts: CheckOptions) -> tuple[CaseSet, str]:
    row = rollout.row
    fn_name = opts.fn_name or row.get("fn_name") or None
    if fn_name is not None and not (isinstance(fn_name, str) and fn_name.isidentifier()):
        raise InvalidRow(f"column 'fn_name' is {_short_repr(fn_name)}, expected a function name")
    if isinstance(row.get("metadata"), (str, dict)) and not fn_name:  # LiveCodeBench
        import json

        meta = row["metadata"]
        try:
            meta = json.loads(meta) if isinstance(meta, str) else meta
            fn_name = meta.get("func_name") if isinstance(meta, dict) else None
        except (ValueError, RecursionError):
            pass
        if fn_name is not None and not (isinstance(fn_name, str) and fn_name.isidentifier()):
            fn_name = None
    setup = ""
    if opts.preset == "leetcode":
        if opts.tests_col not in row:
            raise InvalidRow(f"missing column {opts.tests_col!r} (tests)")
        cs = leetcode_cases(row[opts.tests_col])
        if cs is None:
            raise _AsAsserts()
        return cs, LEETCODE_SETUP
    parts: list[CaseSet] = []
    for col in opts.tests_col.split("+"):
        if col not in row:
            raise InvalidRow(f"missing column {col!r} (tests)")
        try:
            parts.append(parse_cases(row[col], f"tests column {col!r}", fn_name))
        except CaseError as exc:
            raise InvalidRow(str(exc)) from None
    cs = parts[0]
    for p in parts[1:]:
        if p.kind != cs.kind:
            raise InvalidRow(f"tests columns {opts.tests_col!r} mix stdin and call cases")
        cs = replace(cs, inputs=cs.inputs + p.inputs, outputs=cs.outputs + p.outputs)
    return cs, setup


def _check_cases(cs: CaseSet, col: str) -> None:
    """What the sandbox cannot be given or the judge cannot read is the row's fault, said now:
    a function name that is not one, an input holding a lone surrogate (a Python caller's row;
    it cannot be written to a process), an expected call value that is not tagged JSON."""
    if cs.kind == "call" and not (isinstance(cs.fn_name, str) and cs.fn_name.isidentifier()):
        raise InvalidRow(f"tests column {col!r}: fn_name {_short_repr(cs.fn_name)} is not a function name")
    stack: list[Any] = list(cs.inputs)
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not v.isascii():
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise InvalidRow(f"tests column {col!r}: an input is not valid Unicode (a lone surrogate)") from None
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
    if cs.kind == "call":
        for i, out in enumerate(cs.outputs):
            try:
                decode(out)
            except (MalformedValue, RecursionError) as exc:
                raise InvalidRow(f"tests column {col!r}: expected output {i} cannot be read ({exc})") from None


def _short_repr(v: Any) -> str:
    text = repr(v) if isinstance(v, str) else type(v).__name__
    return text if len(text) <= 60 else text[:60] + "..."


class _AsAsserts(Exception):
    """The LeetCode tests are not plain literal asserts: run them as asserts instead."""


def build(rollout: Rollout, opts: CheckOptions, completion: str) -> Check:
    """Build a stdio or call check (or, for LeetCode tests that are not literal asserts, an
    asserts check with the LeetCode setup)."""
    row = rollout.row
    try:
        cs, setup = _cases(rollout, opts)
    except _AsAsserts:
        raw = row[opts.tests_col]
        tests = tests_text(raw.get("functional") if isinstance(raw, dict) else raw, opts.tests_col)
        return asserts.build(completion, tests, opts, LEETCODE_SETUP)
    if opts.test_style in ("stdio", "call") and cs.kind != opts.test_style:
        raise InvalidRow(f"--test-style {opts.test_style} but the tests hold {cs.kind} cases")
    _check_cases(cs, opts.tests_col)
    try:
        lang = languages.normalize(_row_text(row, "language", opts.language))
    except ValueError as exc:
        raise InvalidRow(f"column 'language': {exc}") from None
    if cs.kind == "call" and lang != "python":
        raise InvalidRow(f"call-style tests run Python only, the row's language is {lang!r}")
    try:
        compare_text = _row_text(row, "compare", opts.compare)
        spec = parse_mode(compare_text) if compare_text else None
    except ValueError as exc:
        raise InvalidRow(f"column 'compare': {exc}") from None
    L = languages.LANGUAGES[lang]
    base = opts.limits
    case_cpu = float(opts.case_timeout) if opts.case_timeout else base.cpu_s
    case_cpu += L.extra_cpu_s
    budget = base.cpu_s + L.extra_cpu_s * len(cs.inputs)
    compiled = L.compile is not None or L.syntax_check is not None
    check_cpu = budget + HARNESS_SLACK_S + (languages.COMPILE_CPU_S if compiled else 0.0)
    memory = base.memory_mb + L.extra_memory_mb
    if L.compile is not None:
        memory = max(memory, languages.COMPILE_MEMORY_MB)
    limits = replace(
        base,
        cpu_s=check_cpu,
        wall_s=cases_check_wall_s(check_cpu, base.wall_s),
        memory_mb=memory,
        processes=base.processes + L.extra_processes,
    )
    judge = Judge(stop_on_fail=not opts.run_all, json_expected=cs.json_expected, unwrap_single=cs.unwrap_single,
                  validator=opts.validator if cs.kind == "stdio" else None)
    if spec is not None:
        judge = replace(judge, compare=spec.mode, abs_tol=spec.abs_tol, rel_tol=spec.rel_tol)
    elif cs.kind == "stdio":
        judge = replace(judge, compare=DEFAULT_STDIO_MODE)
    run = CaseOptions(case_cpu_s=case_cpu, budget_cpu_s=budget, stop_on_fail=not opts.run_all,
                      output_cap=base.output_bytes, memory_mb=base.memory_mb)
    if cs.kind == "stdio":
        run = replace(run, inputs=tuple(cs.inputs))
    else:
        run = replace(run, calls=tuple(CallCase(args=tuple(c["args"]), kwargs=tuple(c["kwargs"].items())) for c in cs.inputs),
                      fn_name=str(cs.fn_name))
    return Check(
        style=cs.kind,  # type: ignore[arg-type]
        program=completion,
        tests="",
        expected_tests=tuple(f"case:{i}" for i in range(len(cs.inputs))),
        limits=limits,
        setup=setup,
        language=lang,
        options=run,
        judge=judge,
        expected=tuple(cs.outputs),
    )
