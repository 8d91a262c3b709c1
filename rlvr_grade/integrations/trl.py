"""The reward function for TRL's `GRPOTrainer(reward_funcs=...)`.

What TRL passes (GRPOTrainer._calculate_rewards, trl 1.16; the same since 0.14 but for the
extras): once per generation batch and process,

    f(prompts=[...], completions=[...], completion_ids=[...], **columns,
      trainer_state=..., log_extra=..., log_metric=..., [environments=...])

`columns` is every dataset column but `prompt`, `completion` and `completion_ids`, each a list
with one value per completion (GRPOConfig(remove_unused_columns=True) keeps only `prompt`).
`prompts` is the dataset's `prompt` column as is: text, or for a conversational dataset a list
of messages; `completions` are text, or `[{"role": "assistant", "content": ...}]` lists. The
function returns one float per completion, None for "no reward" (TRL turns it into NaN and
leaves it out of the group's mean and std, with a zero advantage). `log_metric(name, value)`
values are averaged over the logging step and across processes; `log_extra(column, values)`
adds a column to the completions table. An `async def` reward function is awaited on TRL's own
event loop, concurrently with the other async reward functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rlvr_grade.api import Grader, shared_grader
from rlvr_grade.integrations.common import (
    FIX_ROWS,
    SetupError,
    check_on_invalid,
    completion_text,
    grading_options,
    invalid_rows,
    preset_columns,
    row_problem,
    setup_error,
)
from rlvr_grade.types import Outcome

# Keyword arguments TRL passes that are not dataset columns.
NOT_COLUMNS = frozenset({"trainer_state", "log_extra", "log_metric", "environments", "completion_ids"})
# Dataset columns TRL never passes as columns: it passes `prompt` as `prompts` and drops the others.
DROPPED = ("prompt", "completion", "completion_ids")


def make_trl_reward(
    tests_col: str = "tests",
    preset: str | None = None,
    *,
    prompt_col: str | None = None,
    on_invalid_input: str | None = "raise",
    sandbox_error_reward: float | None = None,
    asynchronous: bool = False,
    name: str = "rlvr_grade",
    grader: Grader | None = None,
    **options: Any,
) -> Callable[..., Any]:
    """A reward function for `GRPOTrainer(reward_funcs=...)`.

    `tests_col`: the dataset column with each problem's tests (`preset="humaneval"` makes the
    default `test`, `"mbpp"` `test_list`). `preset="humaneval"` grades prompt + completion: the
    code prompt is TRL's `prompts` when they are text, else the dataset column `prompt_col`
    (required with conversational prompts: TRL never passes the `prompt` column itself).
    `options`: any grading option `make_options` accepts, named like the CLI flags (`timeout`,
    `memory`, `reward="fraction"`, `test_style`, `extract`, `concurrency`, ...), passed through
    as they are. Completions may be text or lists of messages; markdown fences are unwrapped.

    Returns one float per completion. A row the model cannot have made ungradable (a missing
    column, a missing entry_point, tests that do not parse, a prompt the preset needs and cannot
    find) raises SetupError naming the fix at the first call that meets it, instead of scoring
    0 and training the model against correct code; `on_invalid_input=None` gives such rows no
    reward (None) instead. A `sandbox_error` (the infrastructure, after the grader's retries)
    is None, or `sandbox_error_reward` if given. Logs `<name>/pass_rate`,
    `<name>/invalid_inputs` and `<name>/sandbox_errors` through TRL's `log_metric`, and each
    row's status as the `<name>/status` column of the completions table through `log_extra`.

    `asynchronous=True` gives an `async def` (TRL awaits those on its own event loop; the
    checks run on the pool's threads, so the loop is never blocked). `grader`: grade with this
    Grader instead of the process-wide shared one for these options (then give the options to
    the Grader, not here). Each process grades with its own pool of `concurrency` slots,
    default one per core plus 2: with several ranks on one machine pass
    `concurrency=max(1, cores // ranks)`."""
    who = f"rlvr-grade reward {name!r}"
    opts = grading_options(tests_col, preset, grader, options, who)
    checks = opts.checks.resolved()
    check_on_invalid(on_invalid_input, "none", who)
    for col in checks.tests_col.split("+"):
        if col in DROPPED:
            raise SetupError(f"{who}: tests_col={col!r}, a column TRL never passes to reward functions "
                             f"({', '.join(DROPPED)}); rename it in the dataset and pass the new name")
    if prompt_col is not None and checks.preset != "humaneval":
        raise SetupError(f"{who}: prompt_col={prompt_col!r} is read by preset='humaneval' only (the preset "
                         f"here is {checks.preset!r}): drop it, or pass preset='humaneval'")
    if prompt_col in DROPPED[1:]:
        raise SetupError(f"{who}: prompt_col={prompt_col!r}, a column TRL never passes to reward functions; "
                         "keep the code prompt in a column of another name")
    needed = preset_columns(checks)
    fix_rows = FIX_ROWS.format(other="None", what="give such rows no reward (None)")

    def pool() -> Grader:
        return grader.start() if grader is not None else shared_grader(opts)

    def prepare(prompts: Sequence[Any] | None, completions: Sequence[Any], columns: dict[str, Any]):
        """(rows, outcomes): outcomes[i] is set for rows found ungradable before grading."""
        n = len(completions)
        have = sorted(k for k in columns if k not in NOT_COLUMNS)
        for col, what in needed:
            if col not in columns:
                raise SetupError(_missing_column(who, col, what, have, checks.preset))
        per_row = {k: v for k, v in columns.items() if k not in NOT_COLUMNS and isinstance(v, (list, tuple)) and len(v) == n}
        code_prompts = _code_prompts(who, prompt_col, prompts, per_row, have, n) if checks.preset == "humaneval" else None
        rows: list[dict[str, Any]] = []
        early: list[Outcome | None] = [None] * n
        for i in range(n):
            row = {k: v[i] for k, v in per_row.items()}
            row[checks.completion_col] = completion_text(completions[i])
            if code_prompts is not None:
                prompt = code_prompts[i]
                if isinstance(prompt, str):
                    row["prompt"] = prompt
                else:
                    where = f"column {prompt_col!r}" if prompt_col not in (None, "prompt") else "TRL's prompts"
                    early[i] = row_problem(i, f"the code prompt ({where}) is {type(prompt).__name__}, "
                                              "expected the prompt's code as a string")
            rows.append(row)
        return rows, early

    def finish(rows: list[dict[str, Any]], early: list[Outcome | None], graded: list[Outcome],
               columns: dict[str, Any]) -> list[float | None]:
        it = iter(graded)
        outcomes = [e if e is not None else next(it) for e in early]
        bad = invalid_rows(outcomes)
        _log(columns, name, outcomes, len(bad))
        if bad and on_invalid_input == "raise":
            ids = [r.get(checks.id_col) for r in rows] if checks.id_col else None
            raise setup_error(who, outcomes, bad, checks.id_col, ids, _hint(checks.preset), fix_rows)
        return [
            None if o.status == "invalid_input"
            else sandbox_error_reward if o.status == "sandbox_error"
            else o.reward
            for o in outcomes
        ]

    if asynchronous:
        async def reward_async(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
            rows, early = prepare(prompts, completions, columns)
            todo = [r for r, e in zip(rows, early, strict=True) if e is None]
            graded = await pool().agrade(todo) if todo else []
            return finish(rows, early, graded, columns)

        reward_async.__name__ = reward_async.__qualname__ = name
        reward_async.options = opts  # type: ignore[attr-defined]
        return reward_async

    def reward(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
        rows, early = prepare(prompts, completions, columns)
        todo = [r for r, e in zip(rows, early, strict=True) if e is None]
        graded = pool().grade(todo) if todo else []
        return finish(rows, early, graded, columns)

    # TRL names each reward function's logged columns (rewards/<name>/mean) after __name__.
    reward.__name__ = reward.__qualname__ = name
    reward.options = opts  # type: ignore[attr-defined]
    return reward


def _code_prompts(who: str, prompt_col: str | None, prompts: Sequence[Any] | None, per_row: dict[str, Any],
                  have: list[str], n: int) -> Sequence[Any]:
    """The code prompt of each row for the humaneval preset (prompt + completion is the program)."""
    if prompt_col is None or prompt_col == "prompt":
        # TRL passes the dataset's `prompt` column as `prompts`, unchanged, and never as a column.
        if prompts is None or len(prompts) != n:
            raise SetupError(f"{who}: preset='humaneval' needs the code prompts, and TRL passed no prompts")
        if any(not isinstance(p, str) for p in prompts):
            named = (" prompt_col='prompt' names that same column (TRL passes it as `prompts`, never as a "
                     "column of its own)." if prompt_col == "prompt" else "")
            raise SetupError(
                f"{who}: preset='humaneval' grades the code prompt + the completion, and the prompts TRL passes "
                f"are conversational (lists of messages), not the code.{named} Keep the code prompt in a column "
                "of its own when building the chat prompt, e.g. dataset.map(lambda r: {'code_prompt': r['prompt'], "
                "'prompt': [{'role': 'user', 'content': ...}]}), and pass prompt_col='code_prompt'."
            )
        return prompts
    if prompt_col not in per_row:
        raise SetupError(f"{who}: prompt_col={prompt_col!r}, and TRL passed no such column (columns passed: "
                         f"{', '.join(have) or 'none'}). Check the name; with GRPOConfig(remove_unused_columns=True) "
                         "TRL drops every column but `prompt`: keep it False (TRL's default).")
    return per_row[prompt_col]


def _missing_column(who: str, col: str, what: str, have: list[str], preset: str) -> str:
    listed = ", ".join(have) or "none"
    msg = f"{who}: the dataset has no column {col!r} ({what}); columns passed to the reward function: {listed}."
    if not have:
        return msg + (" GRPOConfig(remove_unused_columns=True) drops every column but `prompt`: keep it False "
                      "(TRL's default).")
    if preset == "none" and {"test", "entry_point"} <= set(have):
        return msg + " These look like HumanEval rows: pass preset='humaneval'."
    if preset == "none" and "test_list" in have:
        return msg + " These look like MBPP rows: pass preset='mbpp'."
    if what == "tests":
        return msg + " Name the tests' column with make_trl_reward(tests_col=...)."
    return msg + f" Add it to the dataset (every row needs its {what})."


def _hint(preset: str) -> str:
    if preset == "humaneval":
        return "preset='humaneval' needs, in every row, `prompt` (the code), `test` (defining check) and `entry_point`."
    return ""


def _log(columns: dict[str, Any], name: str, outcomes: list[Outcome], invalid: int) -> None:
    # TRL averages each metric over the calls that logged it: the counts are logged on every
    # call, zeros included; the pass rate only when something was graded (not a made-up 0).
    log_metric = columns.get("log_metric")
    if callable(log_metric) and outcomes:
        errors = sum(o.status == "sandbox_error" for o in outcomes)
        graded = len(outcomes) - errors - invalid
        if graded:
            log_metric(f"{name}/pass_rate", sum(o.status == "pass" for o in outcomes) / graded)
        log_metric(f"{name}/invalid_inputs", float(invalid))
        log_metric(f"{name}/sandbox_errors", float(errors))
    log_extra = columns.get("log_extra")
    if callable(log_extra) and outcomes:
        log_extra(f"{name}/status", [o.status for o in outcomes])


def trl_reward(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
    """Ready TRL reward function: tests in the `tests` column, default options (binary reward,
    10 CPU-seconds per check). `GRPOTrainer(..., reward_funcs=trl_reward)`."""
    return _default()(prompts=prompts, completions=completions, completion_ids=completion_ids, **columns)


trl_reward.__name__ = "rlvr_grade"
_DEFAULT: list[Callable[..., Any]] = []


def _default() -> Callable[..., Any]:
    if not _DEFAULT:
        _DEFAULT.append(make_trl_reward())
    return _DEFAULT[0]
