"""Rollout -> Check. Everything a check needs is decided here, outside the sandbox; in
particular a row's test style is decided here and nowhere else (`build_check`), and the
style's module (checks/<style>.py) builds the check."""

from __future__ import annotations

from typing import Any

from rlvr_grade.checks import asserts, cases, pytest
from rlvr_grade.checks.extract import extract_code
from rlvr_grade.checks.options import CheckOptions
from rlvr_grade.checks.rows import InvalidRow, row_text, tests_text, unicode_text
from rlvr_grade.types import Check, Rollout


def detect_style(tests: str) -> str:
    """The style of test code: pytest if it defines test functions or imports the solution
    module (checks/pytest.detect), else asserts."""
    return "pytest" if pytest.detect(tests) else "asserts"


def build_check(rollout: Rollout, opts: CheckOptions) -> Check:
    """Build the check for one row, or raise InvalidRow naming the field.

    The style, in order: the humaneval and mbpp presets are asserts; the leetcode preset,
    --test-style stdio/call, several tests columns, or (auto) a tests value that looks like
    case records are cases (stdio or call by the cases themselves: checks/cases.py); else
    --test-style, or (auto) `detect_style` of the test code."""
    row = rollout.row
    completion = extract_code(row_text(row, opts.completion_col, "completion"), opts.extract)
    if opts.preset == "humaneval":
        prompt = row_text(row, "prompt", "prompt")
        entry = row_text(row, "entry_point", "entry_point")
        tests = asserts.prompt_helpers(prompt, entry) + row_text(row, opts.tests_col, "tests") + f"\n\ncheck({entry})\n"
        return asserts.build(asserts.join_program(prompt, completion), tests, opts)
    if opts.preset == "mbpp":
        tests = tests_text(row.get(opts.tests_col), opts.tests_col)
        return asserts.build(completion, tests, opts, _mbpp_setup(row))
    if opts.preset == "leetcode" or opts.test_style in ("stdio", "call") or "+" in opts.tests_col or (
        opts.test_style == "auto" and cases.looks_like_cases(row.get(opts.tests_col))
    ):
        return cases.build(rollout, opts, completion)
    if opts.tests_col not in row:
        raise InvalidRow(f"missing column {opts.tests_col!r} (tests)")
    tests = tests_text(row[opts.tests_col], opts.tests_col)
    style = opts.test_style if opts.test_style != "auto" else detect_style(tests)
    return (pytest if style == "pytest" else asserts).build(completion, tests, opts)


def _mbpp_setup(row: dict[str, Any]) -> str:
    imports = row.get("test_imports") or []
    if isinstance(imports, str):
        imports = [imports]
    if not isinstance(imports, (list, tuple)) or not all(isinstance(x, str) for x in imports):
        raise InvalidRow("column 'test_imports' must be a list of import lines")
    return unicode_text("\n".join(imports), "column 'test_imports'")
