"""Red team rty's open findings (issue 15), each a fixture graded through the real sandbox and
marked xfail(strict=True): the fix that closes one flips its test, and the fixture then moves
into the corpus (tests/hacks/, tests/hacks/honest/), where test_fidelity.py keeps it.

tests/hacks/open/: wrong programs that score 1.0. The frame fence closed rty's first five (moved to
tests/hacks/; their unittest variants are graded here), and s15g's as_a_frame an iterator built only
of C callables and a candidate that is a functools.partial (no frame of the program's: the tests'
call of a callable that is not Python code now runs as a program frame). The program's own code ran where the fence
does not see it: without being called, on the tests' thread, after the restorer put the held
state back (a finalizer of the value it returned, a self-renewing cyclic finalizer,
gc.callbacks), or in an implicit call (a generator's body run by the tests' max(), a property
getter): the change rt15 #11 made on the first call (calendar.mdays) stands when the tests read it.

tests/hacks/honest/open/: correct programs that score 0 (docs/fidelity.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions
from rlvr_grade.types import Limits
from tests.conftest import TESTS, requires_root

pytestmark = requires_root

OPEN_HACKS = TESTS / "hacks" / "open"
OPEN_HONEST = TESTS / "hacks" / "honest" / "open"

# f(x) = x + 1, as in test_fidelity.py, and the same as a unittest TestCase module.
STANDARD = {
    "asserts": "assert f(1) == 2\nassert f(41) == 42\nassert f(-3) == -2\n",
    "humaneval": "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(-3) == -2\n\n\ncheck(f)\n",
    "pytest": "from solution import *\n\n\ndef test_f():\n    assert f(1) == 2\n    assert f(-3) == -2\n",
    "unittest": ("import unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                 "    def test_f(self):\n        self.assertEqual(f(1), 2)\n        self.assertEqual(f(-3), -2)\n"),
}


def _own_tests(path: Path) -> dict[str, str]:
    """TESTS_ASSERTS (a HumanEval check()), TESTS_PYTEST, TESTS_UNITTEST strings of a fixture."""
    own = {}
    for node in ast.parse(path.read_text()).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.startswith("TESTS_") and isinstance(node.value, ast.Constant)):
            own[node.targets[0].id[len("TESTS_"):].lower()] = node.value.value
    return own


def _cases(folder: Path) -> list[tuple[str, str]]:
    cases = []
    for path in sorted(folder.glob("*.py")):
        if "\nPROMPT = " in path.read_text():
            continue  # a HumanEval-preset row: test_fidelity.py grades it with the preset
        styles = _own_tests(path) or STANDARD
        cases.extend((path.stem, style) for style in styles)
    return cases


HACK_CASES = _cases(OPEN_HACKS)
# red team rtz: open classes, each its own strict xfail (the reason names the class)
RTZ_OPEN = {
    "finalizer": ("gc_partial_finalizer_changes_table", "gc_library_method_finalizer_sorts_table"),
    "unheld_state": ("random_reseeded_so_tests_draw_one_case", "tzset_moves_the_tests_local_time",
                     "re_cache_serves_another_pattern", "zoneinfo_cache_holds_a_zone_from_elsewhere",
                     "encodings_cache_serves_another_codec", "strptime_regex_cache_swaps_fields"),
    "liar_key": ("struct_cache_liar_key",),
}
RTZ_CASES = {cls: [case for case in HACK_CASES if case[0] in names] for cls, names in RTZ_OPEN.items()}
FINALIZER_CASES, UNHELD_CASES, LIAR_KEY_CASES = RTZ_CASES.values()
HACK_CASES = [case for case in HACK_CASES if not any(case in cases for cases in RTZ_CASES.values())]
# s15i: the program rewrites a class of the tests' that the tests hand it
TESTS_CLASS_CASES = [case for case in HACK_CASES if case[0] == "tests_class_eq_replaced_by_the_program"]
HACK_CASES = [case for case in HACK_CASES if case not in TESTS_CLASS_CASES]
# red team rtk: the interpreter's interned strings tell the program which of its guesses the tests hold
INTERNED_CASES = [case for case in HACK_CASES if case[0] == "interned_strings_tell_the_expected_answer"]
HACK_CASES = [case for case in HACK_CASES if case not in INTERNED_CASES]
# the corpus' hacks that bring a unittest module of their own (test_fidelity.py grades the other styles)
UNITTEST_CASES = [(path.stem, "unittest") for path in sorted((TESTS / "hacks").glob("*.py"))
                  if "unittest" in _own_tests(path)]
HONEST_UNITTEST_CASES = [(path.stem, "unittest") for path in sorted((TESTS / "hacks" / "honest").glob("*.py"))
                         if "unittest" in _own_tests(path)]
HONEST_CASES = _cases(OPEN_HONEST)
# fidi's held-out honest set: the fence's frame between the tests and the program is seen by
# code that looks at its caller (warnings' stacklevel)
FENCE_FRAME_HONEST = [case for case in HONEST_CASES if case[0] == "warning_stacklevel_names_the_tests_line"]
HONEST_CASES = [case for case in HONEST_CASES if case not in FENCE_FRAME_HONEST]
# fidj: the tests' namespace is a copy of the program's, taken when the program's text has run
REBOUND_GLOBAL_HONEST = [case for case in HONEST_CASES if case[0] == "tests_read_a_global_the_program_rebinds"]
HONEST_CASES = [case for case in HONEST_CASES if case not in REBOUND_GLOBAL_HONEST]


@pytest.fixture(scope="module")
def graded() -> dict[tuple[str, str], object]:
    rows, keys = [], []
    for folder, cases in ((OPEN_HACKS, HACK_CASES), (OPEN_HACKS, FINALIZER_CASES), (OPEN_HACKS, UNHELD_CASES),
                          (OPEN_HACKS, LIAR_KEY_CASES), (OPEN_HACKS, TESTS_CLASS_CASES), (OPEN_HACKS, INTERNED_CASES),                           (OPEN_HONEST, HONEST_CASES), (OPEN_HONEST, FENCE_FRAME_HONEST), (OPEN_HONEST, REBOUND_GLOBAL_HONEST), (TESTS / "hacks", UNITTEST_CASES),
                          (TESTS / "hacks" / "honest", HONEST_UNITTEST_CASES)):
        for name, style in cases:
            path = folder / f"{name}.py"
            tests = _own_tests(path) or STANDARD
            rows.append({"completion": path.read_text(), "tests": tests[style]})
            keys.append((name, style))
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=3.0)), concurrency=2, retry_delay=0.05)
    with Grader(opts) as g:
        return dict(zip(keys, g.grade(rows), strict=True))


def test_the_open_fixtures_are_there():
    assert len(UNITTEST_CASES) >= 5 and len(HONEST_UNITTEST_CASES) >= 1
    assert len(FENCE_FRAME_HONEST) == 3  # asserts (check()), pytest, unittest
    assert len(TESTS_CLASS_CASES) == 3
    assert len(INTERNED_CASES) == 3  # HumanEval check(), pytest, unittest
    assert len(REBOUND_GLOBAL_HONEST) == 2  # asserts, humaneval


def _open(cases: list[tuple[str, str]], reason: str) -> list:
    return [pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=reason)) for case in cases]


@pytest.mark.parametrize("name,style", [
    *UNITTEST_CASES,
    *_open(HACK_CASES, "open: program code without a frame of its own"),
    *_open(TESTS_CLASS_CASES, "open (s15i): the tests hand the program their dataclass and it sets the class's "
                              "__eq__ to a lambda of its own file, which strict.eq_of takes for the tests' own __eq__"),
    *_open(FINALIZER_CASES, "open (rtz -> s15g): a finalizer with no frame of the program's: __del__ is "
                            "a functools.partial over calendar.mdays.__setitem__ (C) or collections.UserList.sort (a library's "
                            "frame) on cyclic garbage, collected at the tests' next allocation (gc threshold 1) after the restore"),
])
def test_program_code_without_a_frame_scores_zero(graded, name, style):
    """Program code the tests run without calling it (finalizers and gc callbacks after a
    restore, a generator's body, a property getter) changed held state: fenced by the frame fence.
    The corpus' hacks under unittest; the open hacks, still open, xfail(strict) with who owns them."""
    outcome = graded[(name, style)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)



@pytest.mark.parametrize("name,style", [
    *_open(UNHELD_CASES, "open (rtz -> s15g): state no restorer holds decides the tests' expected "
                         "values: the random module's generator reseeded in every call (the tests' random inputs), "
                         "libc's time zone set by time.tzset() (the tests' time.localtime()), re's pattern cache and "
                         "ZoneInfo's, encodings' and _strptime's caches holding the program's entries under the "
                         "tests' keys"),
    *_open(LIAR_KEY_CASES, "open (rtz -> s15g): a liar key answers a library's C dict lookup: "
                           "a str subclass of the program's, hash of '<i' and __eq__ always True, cached by struct with "
                           "'<q''s layout; the tests' struct.calcsize('<i') finds it"),
])
def test_state_the_restorer_does_not_hold_cannot_decide_the_tests(graded, name, style):
    """State a library keeps that the restorer does not hold (a generator's seed, libc's time
    zone, a stdlib cache, a C cache keyed by a liar key) decides the tests: open, xfail(strict)."""
    outcome = graded[(name, style)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)


@pytest.mark.parametrize("name,style", HONEST_UNITTEST_CASES)
def test_the_corpus_honest_programs_score_one_under_unittest_too(graded, name, style):
    """The tests' own frame-bound builtins (zero-argument super() in setUp) run in their frame."""
    outcome = graded[(name, style)]
    assert outcome.reward == 1.0, (outcome.status, outcome.error)


@pytest.mark.xfail(strict=True, reason="open: honest programs that score 0 (tests/hacks/honest/open/)")
@pytest.mark.parametrize("name,style", HONEST_CASES)
def test_honest_programs_refused_by_the_guard_score_one(graded, name, style):
    outcome = graded[(name, style)]
    assert outcome.reward == 1.0, (outcome.status, outcome.error)


@pytest.mark.xfail(strict=True, reason="open (fidi -> s15h): the program-call fence's frame sits between the tests "
                   "and the program: warnings.warn(..., stacklevel=2) in the program names rlvr_harness/strict.py, "
                   "not the tests' file (pytest.warns, assertWarns' cm.filename, catch_warnings); the reference "
                   "graders name the caller")
@pytest.mark.parametrize("name,style", FENCE_FRAME_HONEST)
def test_a_program_warning_its_caller_names_the_tests(graded, name, style):
    outcome = graded[(name, style)]
    assert outcome.reward == 1.0, (outcome.status, outcome.error)


@pytest.mark.xfail(strict=True, reason="open (fidj -> split): the tests' namespace is a copy of the program's taken "
                   "when the program's text has run (runner.py test_namespace): a global the program rebinds later "
                   "(`global calls; calls += 1`) keeps its old value for the tests; the openai harness runs both in "
                   "one namespace and the tests read the current value")
@pytest.mark.parametrize("name,style", REBOUND_GLOBAL_HONEST)
def test_the_tests_read_a_global_the_program_rebinds(graded, name, style):
    outcome = graded[(name, style)]
    assert outcome.reward == 1.0, (outcome.status, outcome.error)


@pytest.mark.xfail(strict=True, reason="open (rtk -> split): the tests' name-like string constants are interned in the "
                   "process the program runs in, and sys.intern(guess) is not guess tells the program which of its "
                   "guesses the tests hold (docs/fidelity.md, red team rtk)")
@pytest.mark.parametrize("name,style", INTERNED_CASES)
def test_the_interpreters_interned_strings_tell_the_program_nothing(graded, name, style):
    outcome = graded[(name, style)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)
