"""`compute_score` functions for verl's `custom_reward_function`.

What verl passes: its reward managers (naive, dapo, prime, and the reward loop's) call

    compute_score(data_source=, solution_str=, ground_truth=, extra_info=, **reward_kwargs)

once per response (prime positionally), with `ground_truth` = the row's
`reward_model.ground_truth`, `extra_info` = its `extra_info` dict (to which verl adds
`num_turns` and `rollout_reward_scores`), and `reward_kwargs` = the config's
`custom_reward_function.reward_kwargs` (the reward loop adds `reward_router_address` and
`reward_model_tokenizer`). The batch manager calls `compute_score(data_sources=,
solution_strs=, ground_truths=, extra_infos=, **reward_kwargs)` once per batch. verl writes
each score into a float tensor (a dict result: its "score", the other keys logged as
`reward_extra_info`, which must be the same for every response): there is no "no reward".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from rlvr_grade.api import Grader, make_options, shared_grader
from rlvr_grade.checks import CheckOptions
from rlvr_grade.integrations.common import (
    FIX_ROWS,
    check_on_invalid,
    completion_text,
    grading_options,
    invalid_rows,
    option_kwargs,
    row_problem,
    setup_error,
)
from rlvr_grade.types import Outcome, SandboxError

# Keyword arguments verl itself passes to a custom compute_score that are not grading options.
VERL_KWARGS = frozenset({"reward_router_address", "reward_model_tokenizer"})

GROUND_TRUTH_HINT = (
    "verl passes each row's reward_model.ground_truth as `ground_truth`: it must hold the tests (test code, "
    "a list of asserts, or a dict of row fields such as {'test': ..., 'entry_point': ..., 'prompt': ...} for "
    "preset='humaneval'; JSON-encoded or not); fields it leaves out are taken from the row's extra_info dict."
)


def tests_row(ground_truth: Any, tests_col: str, extra_info: Any = None) -> dict[str, Any]:
    """The row a verl sample stands for. `ground_truth` holds the tests: test code, a list of
    assert lines, or a dict of row fields (e.g. {"test": ..., "entry_point": ..., "prompt":
    ...} for the humaneval preset) — any of them possibly JSON-encoded. Dict fields of
    `extra_info` fill in what ground_truth leaves out."""
    row: dict[str, Any] = {}
    if isinstance(extra_info, dict):
        row.update(extra_info)
    gt = ground_truth
    if hasattr(gt, "tolist") and not isinstance(gt, str):  # numpy arrays from parquet columns
        gt = gt.tolist()
    if isinstance(gt, (bytes, bytearray)):
        gt = gt.decode("utf-8", "replace")
    if isinstance(gt, str):
        stripped = gt.strip()
        if stripped[:1] in ("{", "[", '"'):
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):  # not JSON, or nested deeper than it reads
                parsed = None
            if isinstance(parsed, (dict, str)) or (isinstance(parsed, list) and all(isinstance(x, str) for x in parsed)):
                gt = parsed
    if isinstance(gt, dict):
        row.update(gt)
    elif gt is not None:
        row[tests_col] = list(gt) if isinstance(gt, tuple) else gt
    return row


def make_verl_compute_score(
    tests_col: str = "tests",
    preset: str | None = None,
    *,
    return_dict: bool = False,
    on_sandbox_error: str | float = "raise",
    on_invalid_input: str | float = "raise",
    asynchronous: bool = False,
    grader: Grader | None = None,
    **options: Any,
) -> Callable[..., Any]:
    """A `compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)`
    for verl's `custom_reward_function`, with `.batch` for the batch reward manager. Returns
    the reward as a float, or with `return_dict=True` {"score", "acc", "status",
    "tests_passed", "tests_total"} (the same keys for every response, as verl requires).

    `options`: any grading option `make_options` accepts (`timeout`, `reward="fraction"`, ...),
    passed through as they are. Keyword arguments verl forwards from
    `custom_reward_function.reward_kwargs` that name grading options apply to that call; the
    ones verl itself adds (`reward_router_address`, `reward_model_tokenizer`) are ignored; any
    other name raises TypeError rather than being silently dropped.

    A row the model cannot have made ungradable (no tests in ground_truth, a missing
    entry_point, tests that do not parse, a missing prompt for preset="humaneval") raises
    SetupError naming the fix (`on_invalid_input=<float>` scores such rows with that instead).
    A `sandbox_error` raises SandboxError after the grader's retries (`on_sandbox_error=<float>`
    instead). `asynchronous=True` gives an `async def` (verl's reward loop awaits those).
    `grader`: grade with this Grader (then give the options to it, not here)."""
    who = "rlvr-grade compute_score"
    base = grading_options(tests_col, preset, grader, options, who)
    check_on_invalid(on_invalid_input, "float", who)
    check_on_invalid(on_sandbox_error, "float", who, "on_sandbox_error")
    fix_rows = FIX_ROWS.format(other="<a float>", what="score such rows with it")

    def resolve(kwargs: dict[str, Any]) -> tuple[Callable[[], Grader], CheckOptions]:
        extra = option_kwargs(kwargs, VERL_KWARGS, who)
        if grader is not None:
            if extra:
                raise TypeError(f"{who}: grading options {sorted(extra)} in reward_kwargs with grader= given; "
                                "give them to the Grader")
            return grader.start, grader.checks
        opts = make_options(base, **extra) if extra else base
        return (lambda: shared_grader(opts)), opts.checks.resolved()

    def rows_for(solution_strs: Sequence[Any], ground_truths: Sequence[Any], extras: Sequence[Any],
                 checks: CheckOptions) -> tuple[list[dict[str, Any]], list[Outcome | None]]:
        rows, early = [], []
        for i, (s, g, e) in enumerate(zip(solution_strs, ground_truths, extras, strict=True)):
            row = tests_row(g, checks.tests_col, e)
            row[checks.completion_col] = completion_text(s)
            rows.append(row)
            early.append(row_problem(i, "ground_truth is None: no tests") if g is None else None)
        return rows, early

    def settle(rows: list[dict[str, Any]], early: list[Outcome | None], graded: list[Outcome],
               checks: CheckOptions) -> list[float | dict[str, Any]]:
        it = iter(graded)
        outcomes = [e if e is not None else next(it) for e in early]
        bad = invalid_rows(outcomes)
        if bad and on_invalid_input == "raise":
            ids = [r.get(checks.id_col) for r in rows] if checks.id_col else None
            raise setup_error(who, outcomes, bad, checks.id_col, ids, GROUND_TRUTH_HINT, fix_rows)
        return [result(o) for o in outcomes]

    def result(outcome: Outcome) -> float | dict[str, Any]:
        if outcome.status == "sandbox_error":
            if on_sandbox_error == "raise":
                raise SandboxError(f"rlvr-grade: the sandbox failed, not the model ({outcome.error})")
            score = float(on_sandbox_error)
        elif outcome.status == "invalid_input":
            score = float(on_invalid_input)
        else:
            score = float(outcome.reward or 0.0)
        if not return_dict:
            return score
        return {
            "score": score,
            "acc": float(outcome.status == "pass"),
            "status": outcome.status,
            "tests_passed": outcome.tests_passed,
            "tests_total": outcome.tests_total,
        }

    def grade_all(solution_strs, ground_truths, extras, kwargs):
        pool, checks = resolve(kwargs)
        rows, early = rows_for(solution_strs, ground_truths, extras, checks)
        todo = [r for r, e in zip(rows, early, strict=True) if e is None]
        return rows, early, todo, pool, checks

    if asynchronous:
        async def compute_score_async(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any):
            rows, early, todo, pool, checks = grade_all([solution_str], [ground_truth], [extra_info], kwargs)
            graded = await pool().agrade(todo) if todo else []
            return settle(rows, early, graded, checks)[0]

        compute_score_async.__name__ = "compute_score"
        return compute_score_async

    def compute_score(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any):
        rows, early, todo, pool, checks = grade_all([solution_str], [ground_truth], [extra_info], kwargs)
        return settle(rows, early, pool().grade(todo) if todo else [], checks)[0]

    def compute_score_batch(data_sources=None, solution_strs=(), ground_truths=(), extra_infos=None, **kwargs: Any):
        """verl's BatchRewardManager shape: lists in, a list of scores out, graded concurrently."""
        n = len(solution_strs)
        extras = list(extra_infos) if extra_infos is not None else [None] * n
        rows, early, todo, pool, checks = grade_all(list(solution_strs), list(ground_truths), extras, kwargs)
        if not rows:
            return []
        return settle(rows, early, pool().grade(todo) if todo else [], checks)

    compute_score.batch = compute_score_batch  # type: ignore[attr-defined]
    return compute_score


_DEFAULT: list[Callable[..., Any]] = []


def _default() -> Callable[..., Any]:
    if not _DEFAULT:
        _DEFAULT.append(make_verl_compute_score())
    return _DEFAULT[0]


def compute_score(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any) -> float:
    """Ready verl reward function (`custom_reward_function.name=compute_score`): the response
    is the code, `ground_truth` the tests; returns the binary reward as a float."""
    return _default()(data_source, solution_str, ground_truth, extra_info, **kwargs)


def compute_score_batch(data_sources=None, solution_strs=(), ground_truths=(), extra_infos=None, **kwargs: Any) -> list:
    """Ready verl batch reward function (`reward_model.reward_manager=batch`,
    `custom_reward_function.name=compute_score_batch`): grades the whole batch concurrently."""
    return _default().batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs)  # type: ignore[attr-defined]
