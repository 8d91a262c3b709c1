"""The asserts style: test code whose top-level asserts are the tests (HumanEval's check(),
MBPP's test_list, a plain list of asserts). The grader derives the ids of the tests that must
pass (rlvr_harness/splitting.assert_ids) from the test text, before anything runs.

Detection: the fallback (checks/build.py) for tests that are code without test functions.
Harness entry: HARNESS runs the tests statement by statement with strict comparisons
(rlvr_harness/strict.py). Verdict: scoring/records.py over the expected ids."""

from __future__ import annotations

from collections.abc import Callable

from rlvr_grade.checks.options import CheckOptions
from rlvr_grade.checks.rows import PARSE_ERRORS, InvalidRow, unparsable
from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.records import judge_records
from rlvr_grade.types import Check, Execution
from rlvr_harness.placement import in_process_reason
from rlvr_harness.splitting import assert_ids
from rlvr_harness.textcache import TextCache
from rlvr_harness.wire import ENTRY_OF, SuiteOptions

NAME = "asserts"
HARNESS = ENTRY_OF[NAME]  # its harness entry: the harness's one list of styles (rlvr_harness/wire.py)

# Test ids per distinct test text: an RL batch carries each problem's tests once per rollout.
_IDS = TextCache(16 << 20, size_of=lambda ids: 32 * len(ids))


# Whether a test text may run apart from its program (rlvr_harness/placement.py), per text.
_SPLITTABLE = TextCache(4 << 20, size_of=lambda _: 8)


def _splittable(tests: str) -> bool:
    return _SPLITTABLE.get(tests, lambda text: in_process_reason(text) is None)


def _ids(tests: str) -> tuple[str, ...]:  # a tuple: one cached value serves every check
    return tuple(assert_ids(tests))


def expected_tests(tests: str) -> tuple[str, ...]:
    """The ids of the tests in `tests` (raises what parsing raises: PARSE_ERRORS)."""
    return _IDS.get(tests, _ids)


def join_program(prompt: str, completion: str) -> str:
    """HumanEval: a completion is either the body that continues the prompt, or (chat models)
    a whole new definition; a prompt is a complete def with a docstring, so prompt + newline +
    full definition is valid too (the later def wins)."""
    if completion[:1] in (" ", "\t") or not completion.strip():
        return prompt + completion
    return prompt + "\n" + completion



def prompt_helpers(prompt: str, entry: str) -> str:
    """The HumanEval prompt's own definitions other than the entry point (HumanEval/32's
    `poly`, /38's `encode_cyclic`, /50's `encode_shift`), with its imports, as source to put
    before the tests: the tests call them, and the program is prompt + completion, so a
    completion that redefines one would decide the check (an identity `decode_cyclic` with an
    identity `encode_cyclic` passes). The tests take them from the prompt alone; the
    candidate's code keeps its own. "" when the prompt defines no other function or class
    (or does not parse on its own)."""
    import ast

    try:
        tree = ast.parse(prompt)
    except SyntaxError:
        return ""
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) or (isinstance(n, defs) and n.name != entry)]
    if not any(isinstance(n, defs) for n in keep):
        return ""
    lines = prompt.splitlines()
    parts = []
    for n in keep:
        first = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])
        parts.append("\n".join(lines[first - 1:n.end_lineno]))
    return "\n\n".join(parts) + "\n\n\n"


def code_check(style: str, ids: Callable[[str], tuple[str, ...]], program: str, tests: str, opts: CheckOptions, setup: str = "") -> Check:
    """A check of a code style (asserts, pytest): `ids(tests)` gives the expected test ids."""
    if not tests.strip():
        raise InvalidRow(f"tests column {opts.tests_col!r} is empty")
    try:
        expected = ids(tests)
    except PARSE_ERRORS as exc:
        raise unparsable(exc) from None
    if not expected:
        raise InvalidRow(f"no tests found in {opts.tests_col!r} for style {style}")
    options = SuiteOptions(split=True) if opts.split and style == NAME and _splittable(tests) else None
    return Check(style=style, program=program, tests=tests, expected_tests=tuple(expected),  # type: ignore[arg-type]
                 limits=opts.limits, setup=setup, options=options)


def build(program: str, tests: str, opts: CheckOptions, setup: str = "") -> Check:
    return code_check(NAME, expected_tests, program, tests, opts, setup)


def verdict(check: Check, ex: Execution) -> Verdict:
    return judge_records(check, ex)
