"""Reward functions in the shapes trainers call: TRL's GRPOTrainer `reward_funcs` and verl's
`compute_score`. Each grades through one warm, process-wide sandbox pool (api.shared_grader),
so a training step costs the checks, not a pool start.

TRL (>= 0.14) calls a reward function once per batch as

    f(prompts=[...], completions=[...], completion_ids=[...], **columns)

where every other dataset column arrives as a list (one value per completion), plus, in
recent versions, `trainer_state`, `log_extra`, `log_metric` and `environments`. It accepts a
list of floats with None for "no reward for this sample" (turned into NaN and left out of
the group's advantage) — which is what a `sandbox_error` is: the infrastructure failed, the
model did not.

verl's reward managers call `compute_score(data_source=, solution_str=, ground_truth=,
extra_info=)` once per response (naive, dapo, the reward loop, prime — positionally), and
the batch manager calls `compute_score(data_sources=, solution_strs=, ground_truths=,
extra_infos=)` once per batch. verl writes the score into a float tensor and needs the same
dict keys for every response, so there is no None: a sandbox_error raises by default (after
the grader's retries) rather than teaching the model that correct code scores 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from rlvr_grade.api import Grader, make_options, shared_grader
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Outcome, SandboxError

# Keyword arguments TRL passes that are not dataset columns.
_TRL_NOT_COLUMNS = frozenset({"trainer_state", "log_extra", "log_metric", "environments", "completion_ids"})


def completion_text(completion: Any) -> str:
    """The text of one completion: a string as is; a conversational completion (a list of
    messages, TRL's format) gives its last assistant message's content, with multimodal
    content parts ([{"type": "text", "text": ...}]) joined."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content(completion.get("content"))
    if isinstance(completion, (list, tuple)):
        messages = [m for m in completion if isinstance(m, dict)]
        assistant = [m for m in messages if m.get("role", "assistant") == "assistant"]
        chosen = assistant or messages
        if chosen:
            return _content(chosen[-1].get("content"))
        return ""
    if completion is None:
        return ""
    raise TypeError(f"completion is {type(completion).__name__}; expected a string or a list of messages")


def _content(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


def _grading_options(base: dict[str, Any]) -> Any:
    return make_options(None, **base)


# -- TRL --------------------------------------------------------------------------------------
def make_trl_reward(
    tests_col: str = "tests",
    preset: str | None = None,
    *,
    prompt_col: str | None = None,
    sandbox_error_reward: float | None = None,
    asynchronous: bool = False,
    name: str = "rlvr_grade",
    grader: Grader | None = None,
    **options: Any,
) -> Callable[..., Any]:
    """A reward function for `GRPOTrainer(reward_funcs=...)`.

    `tests_col`: the dataset column holding each problem's tests (with `preset="humaneval"`
    the default becomes `test`, with `"mbpp"` `test_list`). `preset`: "humaneval" builds the
    program as prompt + completion: the prompt is TRL's `prompts` when they are plain text,
    else the dataset column `prompt_col`. `options`: any grading option, named like the CLI
    flags (`timeout`, `memory`, `reward="fraction"`, `test_style`, `extract`, `concurrency`,
    ...). Completions may be strings or lists of messages; markdown fences are unwrapped.
    Returns floats; None for a `sandbox_error` (or `sandbox_error_reward` if given).
    `asynchronous=True` gives an `async def` function (TRL awaits those concurrently on its
    own event loop; the grading runs on threads so the loop is never blocked). `grader`: grade
    with this Grader (its options win) instead of the process-wide shared one."""
    if preset is not None:
        options["preset"] = preset
    opts = grader.options if grader is not None else _grading_options({"tests_col": tests_col, **options})
    checks = opts.checks.resolved()

    def pool() -> Grader:
        return grader.start() if grader is not None else shared_grader(opts)

    def rows_for(prompts: Sequence[Any] | None, completions: Sequence[Any], columns: dict[str, Any]) -> list[dict]:
        n = len(completions)
        if checks.tests_col not in columns:
            have = ", ".join(sorted(k for k in columns if k not in _TRL_NOT_COLUMNS)) or "none"
            raise ValueError(
                f"rlvr-grade reward: the dataset has no column {checks.tests_col!r} with the tests "
                f"(columns passed to the reward function: {have}); use make_trl_reward(tests_col=...)"
            )
        per_row = {
            k: v for k, v in columns.items()
            if k not in _TRL_NOT_COLUMNS and isinstance(v, (list, tuple)) and len(v) == n
        }
        rows = []
        for i in range(n):
            row = {k: v[i] for k, v in per_row.items()}
            row[checks.completion_col] = completion_text(completions[i])
            if checks.preset == "humaneval":
                if prompt_col is not None:
                    row["prompt"] = per_row.get(prompt_col, [None] * n)[i]
                elif prompts is not None and isinstance(prompts[i], str):
                    row["prompt"] = prompts[i]
            rows.append(row)
        return rows

    def to_rewards(outcomes: list[Outcome], columns: dict[str, Any]) -> list[float | None]:
        log_metric = columns.get("log_metric")
        if callable(log_metric) and outcomes:
            graded = [o for o in outcomes if o.status != "sandbox_error"]
            log_metric("rlvr_grade/pass_rate", sum(o.status == "pass" for o in graded) / max(1, len(graded)))
            log_metric("rlvr_grade/sandbox_errors", float(len(outcomes) - len(graded)))
        return [
            o.reward if o.status != "sandbox_error" else sandbox_error_reward
            for o in outcomes
        ]

    if asynchronous:
        async def reward_async(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
            rows = rows_for(prompts, completions, columns)
            return to_rewards(await pool().agrade(rows), columns)

        reward_async.__name__ = reward_async.__qualname__ = name
        reward_async.options = opts  # type: ignore[attr-defined]
        return reward_async

    def reward(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
        rows = rows_for(prompts, completions, columns)
        return to_rewards(pool().grade(rows), columns)

    # TRL names each reward function's logged metrics after __name__.
    reward.__name__ = reward.__qualname__ = name
    reward.options = opts  # type: ignore[attr-defined]
    return reward


def trl_reward(prompts=None, completions=(), completion_ids=None, **columns: Any) -> list[float | None]:
    """Ready TRL reward function: tests in the `tests` column, default options (binary reward,
    10 CPU-seconds per check). `GRPOTrainer(..., reward_funcs=trl_reward)`."""
    return _default_trl()(prompts=prompts, completions=completions, completion_ids=completion_ids, **columns)


trl_reward.__name__ = "rlvr_grade"
_DEFAULT_TRL: list[Callable[..., Any]] = []


def _default_trl() -> Callable[..., Any]:
    if not _DEFAULT_TRL:
        _DEFAULT_TRL.append(make_trl_reward())
    return _DEFAULT_TRL[0]


# -- verl -------------------------------------------------------------------------------------
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
            except ValueError:
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
    asynchronous: bool = False,
    grader: Grader | None = None,
    **options: Any,
) -> Callable[..., Any]:
    """A `compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)`
    for verl's `custom_reward_function`. Returns the reward as a float, or with
    `return_dict=True` {"score", "acc", "status", "tests_passed", "tests_total"} (the same keys
    for every response, as verl's reward managers require). `on_sandbox_error`: "raise"
    (default: SandboxError after the grader's retries) or a float to use instead. Keyword
    arguments verl forwards from `custom_reward_function.reward_kwargs` that name grading
    options (`timeout`, `preset`, ...) apply to that call; others are ignored.
    `asynchronous=True` gives an `async def` (verl's reward loop awaits those). `grader`: grade
    with this Grader (its options win) instead of the process-wide shared one."""
    if preset is not None:
        options["preset"] = preset
    base = {"tests_col": tests_col, **options}
    known = _option_names()

    def grade_one(solution_str: Any, ground_truth: Any, extra_info: Any, kwargs: dict[str, Any]) -> tuple[Grader, dict]:
        if grader is not None:
            pool, checks = grader.start(), grader.checks
        else:
            opts = _grading_options({**base, **{k: v for k, v in kwargs.items() if k in known}})
            pool, checks = shared_grader(opts), opts.checks.resolved()
        row = tests_row(ground_truth, checks.tests_col, extra_info)
        row[checks.completion_col] = completion_text(solution_str)
        return pool, row

    def result(outcome: Outcome) -> float | dict[str, Any]:
        if outcome.status == "sandbox_error":
            if on_sandbox_error == "raise":
                raise SandboxError(f"rlvr-grade: the sandbox failed, not the model ({outcome.error})")
            score = float(on_sandbox_error)
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

    if asynchronous:
        async def compute_score_async(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any):
            pool, row = grade_one(solution_str, ground_truth, extra_info, kwargs)
            return result((await pool.agrade([row]))[0])

        compute_score_async.__name__ = "compute_score"
        return compute_score_async

    def compute_score(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any):
        pool, row = grade_one(solution_str, ground_truth, extra_info, kwargs)
        return result(pool.grade([row])[0])

    def compute_score_batch(data_sources=None, solution_strs=(), ground_truths=(), extra_infos=None, **kwargs: Any):
        """verl's BatchRewardManager shape: lists in, a list of scores out, graded concurrently."""
        n = len(solution_strs)
        extras = list(extra_infos) if extra_infos is not None else [None] * n
        prepared = [grade_one(s, g, e, kwargs) for s, g, e in zip(solution_strs, ground_truths, extras, strict=True)]
        if not prepared:
            return []
        return [result(o) for o in prepared[0][0].grade([row for _, row in prepared])]

    compute_score.batch = compute_score_batch  # type: ignore[attr-defined]
    return compute_score


def _option_names() -> frozenset[str]:
    import dataclasses

    from rlvr_grade.api import _ALIASES, ScoreOptions
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.types import Limits

    names = set(_ALIASES)
    for cls in (ScoreOptions, CheckOptions, RewardConfig, Limits):
        names |= {f.name for f in dataclasses.fields(cls)}
    return frozenset(names - {"checks", "limits"})


_DEFAULT_VERL: list[Callable[..., Any]] = []


def _default_verl() -> Callable[..., Any]:
    if not _DEFAULT_VERL:
        _DEFAULT_VERL.append(make_verl_compute_score())
    return _DEFAULT_VERL[0]


def compute_score(data_source=None, solution_str="", ground_truth=None, extra_info=None, **kwargs: Any) -> float:
    """Ready verl reward function (`custom_reward_function.name=compute_score`): the response
    is the code, `ground_truth` the tests; returns the binary reward as a float."""
    return _default_verl()(data_source, solution_str, ground_truth, extra_info, **kwargs)


def compute_score_batch(data_sources=None, solution_strs=(), ground_truths=(), extra_infos=None, **kwargs: Any) -> list:
    """Ready verl batch reward function (`reward_model.reward_manager=batch`,
    `custom_reward_function.name=compute_score_batch`): grades the whole batch concurrently."""
    return _default_verl().batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs)  # type: ignore[attr-defined]
