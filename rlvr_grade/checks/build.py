"""Rollout -> Check. Everything a check needs is decided here, outside the sandbox."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from rlvr_grade.checks.cases import looks_like_cases
from rlvr_grade.checks.extract import ExtractMode, extract_code
from rlvr_grade.harness.splitting import assert_ids, pytest_ids
from rlvr_grade.textcache import TextCache
from rlvr_grade.types import Check, Limits, Rollout

Preset = Literal["none", "humaneval", "mbpp", "leetcode"]
StyleChoice = Literal["auto", "pytest", "asserts", "stdio", "call"]


class InvalidRow(Exception):
    """The row itself is unusable; becomes status=invalid_input with this message."""


@dataclass(frozen=True)
class CheckOptions:
    """How rows map to checks: columns, preset, extraction, test style, limits."""

    completion_col: str = "completion"
    tests_col: str = "tests"
    id_col: str | None = None
    group_col: str | None = None
    preset: Preset = "none"
    extract: ExtractMode = "auto"
    test_style: StyleChoice = "auto"
    limits: Limits = field(default_factory=Limits)
    # stdio / call styles (see checks/stdio_check.py); a row's `language`, `compare` and
    # `fn_name` columns override these per row.
    language: str = "python"
    compare: str | None = None  # None: tokens for stdio, strict equality for call
    case_timeout: float | None = None  # CPU s per case; None: the whole --timeout budget
    run_all: bool = False  # judge every case (for --reward fraction) instead of stopping at the first failure
    fn_name: str | None = None
    validator: Any = None  # a stdio_check.Validator: Kattis/ICPC output validator for every row
    # A row's environment (a name, an id or "default") overrides the run's --env; see
    # rlvr_grade/envs and api.Grader.
    env_col: str = "env"

    def resolved(self) -> "CheckOptions":
        """Apply the preset's column defaults where the user kept the generic ones."""
        from dataclasses import replace

        if self.preset == "humaneval":
            return replace(
                self,
                tests_col="test" if self.tests_col == "tests" else self.tests_col,
                id_col=self.id_col or "task_id",
                group_col=self.group_col or "task_id",
            )
        if self.preset == "mbpp":
            return replace(
                self,
                tests_col="test_list" if self.tests_col == "tests" else self.tests_col,
                id_col=self.id_col or "task_id",
                group_col=self.group_col or "task_id",
            )
        return self

    def required_columns(self) -> list[str]:
        cols = [self.completion_col, *self.tests_col.split("+")]
        if self.preset == "humaneval":
            cols += ["prompt", "entry_point"]
        return cols



# Test ids per distinct test text: an RL batch carries each problem's tests once per rollout.
_ASSERT_IDS = TextCache(16 << 20, size_of=lambda ids: 32 * len(ids))
_PYTEST_IDS = TextCache(16 << 20, size_of=lambda ids: 48 * len(ids))


def _assert_ids(tests: str) -> tuple[str, ...]:  # a tuple: one cached value serves every check
    return tuple(assert_ids(tests))


def _pytest_ids(tests: str) -> tuple[str, ...]:
    return tuple(pytest_ids(tests))

def _text(row: dict[str, Any], col: str, what: str) -> str:
    if col not in row:
        raise InvalidRow(f"missing column {col!r} ({what})")
    value = row[col]
    if value is None:
        raise InvalidRow(f"{what} column {col!r} is null")
    if not isinstance(value, str):
        raise InvalidRow(f"{what} column {col!r} is {type(value).__name__}, expected a string")
    return unicode_text(value, f"{what} column {col!r}")


def unicode_text(value: str, what: str) -> str:
    """`value` if it is valid Unicode text; a lone surrogate (only a Python caller can pass
    one: JSON and Parquet readers refuse them) cannot be written to the sandbox's files."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidRow(f"{what} is not valid Unicode (a lone surrogate at character {exc.start})") from None
    return value


# What parsing test code can raise besides SyntaxError: null bytes (ValueError), nesting deeper
# than the parser's recursion limit, or more than memory allows.
PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)


def unparsable(exc: BaseException) -> InvalidRow:
    """The invalid_input message for tests that do not parse."""
    if isinstance(exc, SyntaxError):
        return InvalidRow(f"tests do not parse: {exc.msg} (line {exc.lineno})")
    if isinstance(exc, RecursionError):
        return InvalidRow("tests do not parse: nested too deeply")
    if isinstance(exc, MemoryError):
        return InvalidRow("tests do not parse: too big")
    return InvalidRow(f"tests do not parse: {exc}")


def _tests_text(value: Any, col: str) -> str:
    if value is None:
        raise InvalidRow(f"tests column {col!r} is null")
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped.startswith("[") and stripped.rstrip().endswith("]"):
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):
                return unicode_text(value, f"tests column {col!r}")
            if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
                return unicode_text("\n".join(parsed) + "\n", f"tests column {col!r}")
        return unicode_text(value, f"tests column {col!r}")
    if isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        return unicode_text("\n".join(value) + "\n", f"tests column {col!r}")
    raise InvalidRow(f"tests column {col!r} is {type(value).__name__}, expected code or a list of asserts")


def detect_style(tests: str) -> str:
    """pytest if the tests define test functions or import the solution module; else asserts."""
    try:
        ids = pytest_ids(tests)
    except PARSE_ERRORS:
        return "asserts"  # and assert_ids says why it does not parse
    if ids:
        return "pytest"
    if "from solution import" in tests or "import solution" in tests:
        return "pytest"
    return "asserts"


def join_program(prompt: str, completion: str) -> str:
    """HumanEval: a completion is either the body that continues the prompt, or (chat models)
    a whole new definition; a prompt is a complete def with a docstring, so prompt + newline +
    full definition is valid too (the later def wins)."""
    if completion[:1] in (" ", "\t") or not completion.strip():
        return prompt + completion
    return prompt + "\n" + completion


def build_check(rollout: Rollout, opts: CheckOptions) -> Check:
    """Build the check for one row, or raise InvalidRow naming the field."""
    row = rollout.row
    completion = extract_code(_text(row, opts.completion_col, "completion"), opts.extract)
    setup = ""
    if opts.preset == "humaneval":
        prompt = _text(row, "prompt", "prompt")
        entry = _text(row, "entry_point", "entry_point")
        program = join_program(prompt, completion)
        tests = _text(row, opts.tests_col, "tests") + f"\n\ncheck({entry})\n"
        style = "asserts"
    elif opts.preset == "mbpp":
        program = completion
        tests = _tests_text(row.get(opts.tests_col), opts.tests_col)
        imports = row.get("test_imports") or []
        if isinstance(imports, str):
            imports = [imports]
        if not isinstance(imports, (list, tuple)) or not all(isinstance(x, str) for x in imports):
            raise InvalidRow("column 'test_imports' must be a list of import lines")
        setup = unicode_text("\n".join(imports), "column 'test_imports'")
        style = "asserts"
    elif opts.preset == "leetcode" or opts.test_style in ("stdio", "call") or (
        opts.test_style == "auto" and "+" not in opts.tests_col and looks_like_cases(row.get(opts.tests_col))
    ) or "+" in opts.tests_col:
        from rlvr_grade.checks.stdio_check import build_case_check

        return build_case_check(rollout, opts, completion)
    else:
        if opts.tests_col not in row:
            raise InvalidRow(f"missing column {opts.tests_col!r} (tests)")
        program = completion
        tests = _tests_text(row[opts.tests_col], opts.tests_col)
        style = opts.test_style if opts.test_style != "auto" else detect_style(tests)
    if not tests.strip():
        raise InvalidRow(f"tests column {opts.tests_col!r} is empty")
    try:
        expected = _PYTEST_IDS.get(tests, _pytest_ids) if style == "pytest" else _ASSERT_IDS.get(tests, _assert_ids)
    except PARSE_ERRORS as exc:
        raise unparsable(exc) from None
    if not expected:
        raise InvalidRow(f"no tests found in {opts.tests_col!r} for style {style}")
    return Check(
        style=style,  # type: ignore[arg-type]
        program=program,
        tests=tests,
        expected_tests=tuple(expected),
        limits=opts.limits,
        setup=setup,
    )
