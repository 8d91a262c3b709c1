"""How rows map to checks: columns, preset, extraction, test style, limits (CheckOptions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rlvr_grade.checks.extract import ExtractMode
from rlvr_grade.types import Limits

Preset = Literal["none", "humaneval", "mbpp", "leetcode"]
StyleChoice = Literal["auto", "pytest", "asserts", "stdio", "call"]


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
    # stdio / call styles (see checks/cases.py); a row's `language`, `compare` and
    # `fn_name` columns override these per row.
    language: str = "python"
    compare: str | None = None  # None: tokens for stdio, strict equality for call
    case_timeout: float | None = None  # CPU s per case; None: the whole --timeout budget
    run_all: bool = False  # judge every case (for --reward fraction) instead of stopping at the first failure
    fn_name: str | None = None
    validator: Any = None  # a types.Validator: Kattis/ICPC output validator for every row
    # A row's environment (a name, an id or "default") overrides the run's --env; see
    # rlvr_grade/envs and api.Grader.
    env_col: str = "env"
    # asserts style (HumanEval, MBPP): the program in a process of its own (SuiteOptions.split)
    split: bool = False

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
