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

Expected values are kept here, outside the sandbox; only inputs/arguments go in."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from typing import Any

from rlvr_grade.harness.splitting import parse_locked


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


def _loads(value: Any, what: str) -> Any:
    if isinstance(value, (bytes, bytearray)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise CaseError(f"{what} is bytes that are not UTF-8 text") from None
    if isinstance(value, str):
        try:
            return json.loads(value)
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
            value = json.loads(value)
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
    value = _loads(value, what)
    if isinstance(value, dict):
        return _parse_dict(value, what, fn_name)
    if isinstance(value, (list, tuple)):
        return _parse_list(list(value), what, fn_name)
    raise CaseError(f"{what} is {type(value).__name__}, expected a list of cases or an inputs/outputs object")


def _parse_dict(d: dict, what: str, fn_name: str | None) -> CaseSet:
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


def _parse_list(items: list, what: str, fn_name: str | None) -> CaseSet:
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
                ins.append({"args": args, "kwargs": kwargs})
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
    from rlvr_grade.harness.call import NotPlain, encode

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
