"""What the trainers' adapters share: the completion's text, the grading options, and the rule
that tells a row the model cannot have made ungradable from a completion that earned its 0.

Every `invalid_input` a trainer's row can get comes from the dataset or the configuration,
never from the completion: the adapters always hand the grader the completion as a string
(which no check rejects), so what is left to be invalid is the tests, the preset's columns
(`prompt`, `entry_point`) or a row field such as `language`. A completion that does not parse
is the model's fault and scores 0 as `compile_error`. Scoring an invalid row 0 would train
the model against correct code, so the adapters raise SetupError at the first call that meets
one (or, if asked, give the row no reward)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rlvr_grade.api import ScoreOptions, make_options, option_names
from rlvr_grade.checks import CheckOptions
from rlvr_grade.scoring import invalid
from rlvr_grade.types import Outcome


class SetupError(ValueError):
    """The dataset or the reward function's configuration leaves a row ungradable, which no
    completion can cause: a missing column, a missing `entry_point`, tests that do not parse, a
    prompt the preset needs and cannot find. The message names the row and the fix."""


FIX_ROWS = (
    "Fix those rows in the dataset (or filter them out), or pass on_invalid_input={other} to "
    "{what} instead of raising."
)


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


def grading_options(tests_col: str, preset: str | None, grader: Any, options: dict[str, Any], who: str) -> ScoreOptions:
    """The options an adapter grades with: the Grader's, or the keyword arguments (any name
    `make_options` accepts, passed through as they are). Both at once is refused: the Grader's
    options would silently win over the ones given here."""
    if grader is not None:
        given = sorted({**options, **({"preset": preset} if preset is not None else {}),
                        **({"tests_col": tests_col} if tests_col != "tests" else {})})
        if given:
            raise TypeError(f"{who}: grader= and grading options ({', '.join(given)}) at once; "
                            "give the options to the Grader, whose options are the ones used")
        return grader.options
    if preset is not None:
        options = {**options, "preset": preset}
    return make_options(None, tests_col=tests_col, **options)


def check_on_invalid(value: Any, allowed: str, who: str, param: str = "on_invalid_input") -> None:
    if value == "raise":
        return
    if allowed == "none" and value is None:
        return
    if allowed == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return
    raise ValueError(f"{who}: {param} must be 'raise' or {'None' if allowed == 'none' else 'a float'}, not {value!r}")


def preset_columns(checks: CheckOptions) -> list[tuple[str, str]]:
    """(column, what it is) that every row needs, besides the completion and the preset's prompt."""
    cols = [(c, "tests") for c in checks.tests_col.split("+")]
    if checks.preset == "humaneval":
        cols.append(("entry_point", "the function the tests call"))
    return cols


def invalid_rows(outcomes: Sequence[Outcome]) -> list[int]:
    return [i for i, o in enumerate(outcomes) if o.status == "invalid_input"]


def row_problem(index: int, message: str) -> Outcome:
    """The invalid_input Outcome for a row an adapter found ungradable before grading it."""
    return invalid(f"row {index}: {message}")


def setup_error(who: str, outcomes: Sequence[Outcome], bad: list[int], id_col: str | None,
                ids: Sequence[Any] | None, hint: str, fix_rows: str) -> SetupError:
    """One error for a batch's invalid rows: how many, and each distinct problem once (the
    completions of one prompt share it), with its id and the rows of the batch it holds."""
    problems: dict[tuple[Any, str], list[int]] = {}
    for i in bad:
        message = outcomes[i].error
        prefix = f"row {i}: "
        message = message[len(prefix):] if message.startswith(prefix) else message
        ident = ids[i] if ids is not None else None
        problems.setdefault((ident if isinstance(ident, (str, int)) else None, message), []).append(i)
    shown = []
    for (ident, message), rows in list(problems.items())[:3]:
        where = f"{id_col} {ident!r}, " if ident is not None else ""
        listed = ", ".join(map(str, rows[:5])) + (", ..." if len(rows) > 5 else "")
        shown.append(f"  {where}row{'s' if len(rows) > 1 else ''} {listed}: {message}")
    more = f"\n  ... and {len(problems) - 3} more" if len(problems) > 3 else ""
    return SetupError(
        f"{who}: {f'{len(bad)} of {len(outcomes)} rows' if len(outcomes) > 1 else 'the row'} cannot be graded, whatever the model wrote "
        f"(the dataset or the configuration, not the completion):\n" + "\n".join(shown) + more
        + (f"\n{hint}" if hint else "") + f"\n{fix_rows}"
    )


def option_kwargs(kwargs: dict[str, Any], ignored: frozenset[str], who: str) -> dict[str, Any]:
    """The grading options among keyword arguments a trainer forwards from its config; names
    the trainer itself passes (`ignored`) are dropped; any other name is a typo or a
    misplaced setting, and raises rather than being silently ignored."""
    names = option_names()
    unknown = sorted(k for k in kwargs if k not in names and k not in ignored)
    if unknown:
        raise TypeError(f"{who}: unknown keyword argument(s) {', '.join(map(repr, unknown))}: not a grading option "
                        f"(valid: {', '.join(sorted(names))})")
    return {k: v for k, v in kwargs.items() if k in names}
