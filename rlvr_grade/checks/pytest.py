"""The pytest style: test functions (test_* and the test methods of Test*/unittest classes)
run by pytest inside the sandbox; the grader lists their ids (rlvr_harness/splitting.pytest_ids)
from the test text before anything runs.

Detection: `detect` (checks/build.py asks it for tests that are code). Harness entry: HARNESS
(pytest in the warm worker, rlvr_harness/runner.py). Verdict: scoring/records.py, a parametrized
test's records counted under the test's own id, xfail and skip marks read from the tests'
text (splitting.pytest_marks)."""

from __future__ import annotations

from rlvr_grade.checks.asserts import code_check
from rlvr_grade.checks.options import CheckOptions
from rlvr_grade.checks.rows import PARSE_ERRORS
from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.records import judge_records
from rlvr_grade.types import Check, Execution
from rlvr_harness.splitting import base_id, pytest_ids, pytest_marks
from rlvr_harness.textcache import TextCache
from rlvr_harness.wire import ENTRY_OF

NAME = "pytest"
HARNESS = ENTRY_OF[NAME]  # its harness entry: the harness's one list of styles (rlvr_harness/wire.py)

_IDS = TextCache(16 << 20, size_of=lambda ids: 48 * len(ids))
_MARKS = TextCache(4 << 20, size_of=lambda marks: 64 * len(marks) + 16)


def _ids(tests: str) -> tuple[str, ...]:
    return tuple(pytest_ids(tests))


def expected_tests(tests: str) -> tuple[str, ...]:
    return _IDS.get(tests, _ids)


def detect(tests: str) -> bool:
    """Whether test code is pytest's: it defines test functions or imports the solution module."""
    try:
        ids = pytest_ids(tests)
    except PARSE_ERRORS:
        return False  # asserts, whose assert_ids says why it does not parse
    if ids:
        return True
    return "from solution import" in tests or "import solution" in tests


def build(program: str, tests: str, opts: CheckOptions, setup: str = "") -> Check:
    return code_check(NAME, expected_tests, program, tests, opts, setup)


def _marks(tests: str) -> dict[str, frozenset[str]]:
    try:
        return pytest_marks(tests)
    except PARSE_ERRORS:
        return {}


def verdict(check: Check, ex: Execution) -> Verdict:
    """scoring/records.py over the expected ids, with the xfail and skip marks the tests' text
    writes (docs/fidelity.md, "xfail and skip marks")."""
    return judge_records(check, ex, key=base_id, marks=_MARKS.get(check.tests, _marks))
