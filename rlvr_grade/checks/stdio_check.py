"""Rollout -> Check for the stdio and call styles (and the LeetCode preset).

The check's payload carries the program, the language, the case *inputs* and the run limits;
the expected outputs go to Check.expected, which never leaves the grader. Limits: `--timeout`
is the row's CPU budget for running cases; `case_timeout` is the CPU limit of one case;
compiling has its own allowance on top (languages.COMPILE_CPU_S), and each language's runtime
adjustments (languages.py) are added to the check's memory and process limits."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rlvr_grade import languages
from rlvr_grade.checks.cases import CaseError, CaseSet, leetcode_cases, parse_cases
from rlvr_grade.compare import DEFAULT_STDIO_MODE, parse_mode
from rlvr_grade.types import Check, Limits, Rollout

if TYPE_CHECKING:
    from rlvr_grade.checks.build import CheckOptions

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


@dataclass(frozen=True)
class Validator:
    """A Kattis/ICPC output validator: source files, the one to build or run, its language and
    extra arguments. Runs in its own sandbox check, with its own limits."""

    files: tuple[tuple[str, str], ...]
    main: str
    language: str = "cpp"
    args: tuple[str, ...] = ()
    case_cpu_s: float = 10.0
    limits: Limits = field(default_factory=lambda: Limits(cpu_s=90.0, memory_mb=1024, processes=64))

    @classmethod
    def from_dir(cls, path: str, args: tuple[str, ...] = ()) -> "Validator":
        """A validator directory as problem packages ship it (validate.cc + validate.h, or a
        single .py). The main file is the one source with a `main` (or the only .py)."""
        files: dict[str, str] = {}
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if os.path.isfile(full) and name.endswith((".c", ".cc", ".cpp", ".h", ".hpp", ".py", ".java")):
                with open(full, encoding="utf-8", errors="replace") as fh:
                    files[name] = fh.read()
        mains = [n for n, text in files.items() if n.endswith((".c", ".cc", ".cpp", ".py", ".java"))
                 and ("main(" in text or n.endswith(".py"))]
        if len(mains) != 1:
            raise ValueError(f"output validator in {path}: expected one main source, found {mains or 'none'}")
        main = mains[0]
        ext = main.rsplit(".", 1)[1]
        lang = {"c": "c", "cc": "cpp", "cpp": "cpp", "py": "python", "java": "java"}[ext]
        return cls(files=tuple(files.items()), main=main, language=lang, args=tuple(args))

    def as_options(self) -> dict[str, Any]:
        return {"files": dict(self.files), "main": self.main, "language": self.language,
                "args": list(self.args), "case_cpu_s": self.case_cpu_s,
                "limits": {"cpu_s": self.limits.cpu_s, "memory_mb": self.limits.memory_mb, "processes": self.limits.processes}}


def _row_value(row: dict[str, Any], col: str, default: Any) -> Any:
    v = row.get(col)
    return default if v is None or v == "" else v


def _row_text(row: dict[str, Any], col: str, default: Any) -> Any:
    """A per-row text setting (language, compare): the column's string, else `default`."""
    v = _row_value(row, col, default)
    if v is not None and not isinstance(v, str):
        raise ValueError(f"expected text, got {type(v).__name__}")
    return v


def _cases(rollout: Rollout, opts: "CheckOptions") -> tuple[CaseSet, str]:
    from rlvr_grade.checks.build import InvalidRow

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
    from rlvr_grade.checks.build import InvalidRow
    from rlvr_grade.compare import MalformedValue, decode

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


def build_case_check(rollout: Rollout, opts: "CheckOptions", completion: str) -> Check:
    """Build a stdio or call check (or, for LeetCode tests that are not literal asserts, an
    asserts check with the LeetCode setup)."""
    from rlvr_grade.checks.build import PARSE_ERRORS, InvalidRow, _tests_text, unparsable
    from rlvr_grade.harness.splitting import assert_ids

    row = rollout.row
    try:
        cs, setup = _cases(rollout, opts)
    except _AsAsserts:
        raw = row[opts.tests_col]
        tests = _tests_text(raw.get("functional") if isinstance(raw, dict) else raw, opts.tests_col)
        try:
            ids = assert_ids(tests)
        except PARSE_ERRORS as exc:
            raise unparsable(exc) from None
        if not ids:
            raise InvalidRow(f"no tests found in {opts.tests_col!r}")
        return Check(style="asserts", program=completion, tests=tests, expected_tests=tuple(ids),
                     limits=opts.limits, setup=LEETCODE_SETUP)
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
        # The wall backstop of the whole check covers every case's own backstop.
        wall_s=(base.wall_s if base.wall_s is not None else 0.0) + 3.0 * check_cpu + 10.0,
        memory_mb=memory,
        processes=base.processes + L.extra_processes,
    )
    judge: dict[str, Any] = {"stop_on_fail": not opts.run_all}
    if spec is not None:
        judge.update(compare=spec.mode, abs_tol=spec.abs_tol, rel_tol=spec.rel_tol)
    elif cs.kind == "stdio":
        judge["compare"] = DEFAULT_STDIO_MODE
    if cs.kind == "call":
        judge.update(json_expected=cs.json_expected, unwrap_single=cs.unwrap_single)
    if opts.validator is not None and cs.kind == "stdio":
        judge["validator"] = opts.validator.as_options()
    run_opts: dict[str, Any] = {
        "case_cpu_s": case_cpu,
        "budget_cpu_s": budget,
        "stop_on_fail": not opts.run_all,
        "output_cap": base.output_bytes,
        "memory_mb": base.memory_mb,
        "judge": judge,
    }
    if cs.kind == "stdio":
        run_opts["inputs"] = list(cs.inputs)
    else:
        run_opts["cases"] = list(cs.inputs)
        run_opts["fn_name"] = cs.fn_name
    return Check(
        style=cs.kind,  # type: ignore[arg-type]
        program=completion,
        tests="",
        expected_tests=tuple(f"case:{i}" for i in range(len(cs.inputs))),
        limits=limits,
        setup=setup,
        language=lang,
        options=tuple(sorted(run_opts.items())),
        expected=tuple(cs.outputs),
    )
