"""The red teams' open findings (issue 15), each a fixture graded through the real sandbox and
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


# Each open class: the fixtures (file stems) it holds and why it is open. A fixture of the open
# folders named by no class is graded under the folder's catch-all reason.
OPEN_HACK_CLASSES = {
    "finalizer": (("gc_partial_finalizer_changes_table", "gc_library_method_finalizer_sorts_table"),
                  "open (rtz): a finalizer with no frame of the program's: __del__ is a functools.partial over "
                  "calendar.mdays.__setitem__ (C) or collections.UserList.sort (a library's frame) on cyclic "
                  "garbage, collected at the tests' next allocation (gc threshold 1) after the restore"),
    "unheld_state": (("random_reseeded_so_tests_draw_one_case", "tzset_moves_the_tests_local_time",
                      "re_cache_serves_another_pattern", "zoneinfo_cache_holds_a_zone_from_elsewhere",
                      "encodings_cache_serves_another_codec", "strptime_regex_cache_swaps_fields"),
                     "open (rtz): state no restorer holds decides the tests' expected values: the random module's "
                     "generator reseeded in every call, libc's time zone set by time.tzset(), re's pattern cache and "
                     "ZoneInfo's, encodings' and _strptime's caches holding the program's entries under the tests' "
                     "keys (closed by the program's own process: CheckOptions(split=True), not yet the default)"),
    "liar_key": (("struct_cache_liar_key",),
                 "open (rtz): a liar key answers a library's C dict lookup: a str subclass of the program's with "
                 "the hash of '<i' and __eq__ always True, cached by struct with '<q''s layout"),
    "tests_class": (("tests_class_eq_replaced_by_the_program",),
                    "open (s15i): the tests hand the program their dataclass and it sets the class's __eq__ to a "
                    "lambda of its own file, which strict.eq_of takes for the tests' own __eq__"),
    "interned": (("interned_strings_tell_the_expected_answer",),
                 "open (rtk): the tests' name-like string constants are interned in the process the program runs "
                 "in, and sys.intern(guess) is not guess tells the program which of its guesses the tests hold"),
}
OPEN_HONEST_CLASSES = {
    "fence_frame": (("warning_stacklevel_names_the_tests_line",),
                    "open (fidi): the program-call fence's frame sits between the tests and the program: "
                    "warnings.warn(..., stacklevel=2) in the program names rlvr_harness/strict.py, not the tests' "
                    "file; the reference graders name the caller"),
    "rebound_global": (("tests_read_a_global_the_program_rebinds",),
                       "open (fidj): the tests' namespace is a copy of the program's taken when the program's text "
                       "has run (runner.py test_namespace): a global the program rebinds later keeps its old value "
                       "for the tests; the openai harness runs both in one namespace"),
}
ANY_OPEN_HACK = "open: a wrong program that scores 1.0 (tests/hacks/open/, docs/fidelity.md)"
ANY_OPEN_HONEST = "open: a correct program that scores 0 (tests/hacks/honest/open/, docs/fidelity.md)"


def _open(folder: Path, classes: dict[str, tuple[tuple[str, ...], str]], catch_all: str) -> list:
    """Every case of an open folder as a strict xfail carrying its class's reason."""
    reason_of = {stem: reason for stems, reason in classes.values() for stem in stems}
    return [pytest.param(name, style, marks=pytest.mark.xfail(strict=True, reason=reason_of.get(name, catch_all)),
                         id=f"{name}-{style}")
            for name, style in _cases(folder)]


def _named(folder: Path, classes: dict[str, tuple[tuple[str, ...], str]]) -> set[str]:
    """The stems the classes name that have no fixture in the folder (a class closed without moving its fixture
    out, or a typo)."""
    have = {path.stem for path in folder.glob("*.py")}
    return {stem for stems, _ in classes.values() for stem in stems} - have


OPEN_HACK_CASES = _open(OPEN_HACKS, OPEN_HACK_CLASSES, ANY_OPEN_HACK)
OPEN_HONEST_CASES = _open(OPEN_HONEST, OPEN_HONEST_CLASSES, ANY_OPEN_HONEST)
# the corpus' hacks and honest programs that bring a unittest module of their own (test_fidelity.py
# grades the other styles)
UNITTEST_CASES = [(path.stem, "unittest") for path in sorted((TESTS / "hacks").glob("*.py"))
                  if "unittest" in _own_tests(path)]
HONEST_UNITTEST_CASES = [(path.stem, "unittest") for path in sorted((TESTS / "hacks" / "honest").glob("*.py"))
                         if "unittest" in _own_tests(path)]


@pytest.fixture(scope="module")
def graded() -> dict[tuple[str, str], object]:
    rows, keys = [], []
    for folder, cases in ((OPEN_HACKS, [p.values for p in OPEN_HACK_CASES]),
                          (OPEN_HONEST, [p.values for p in OPEN_HONEST_CASES]),
                          (TESTS / "hacks", UNITTEST_CASES), (TESTS / "hacks" / "honest", HONEST_UNITTEST_CASES)):
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
    assert not _named(OPEN_HACKS, OPEN_HACK_CLASSES) and not _named(OPEN_HONEST, OPEN_HONEST_CLASSES)
    assert len(OPEN_HACK_CASES) >= 30 and len(OPEN_HONEST_CASES) >= 20


@pytest.mark.parametrize("name,style", [*UNITTEST_CASES, *OPEN_HACK_CASES])
def test_wrong_programs_score_zero(graded, name, style):
    """The corpus' hacks under unittest; the open hacks, each xfail(strict) with its class's reason."""
    outcome = graded[(name, style)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)


@pytest.mark.parametrize("name,style", [*HONEST_UNITTEST_CASES, *OPEN_HONEST_CASES])
def test_correct_programs_score_one(graded, name, style):
    """The corpus' honest programs under unittest; the open ones, each xfail(strict) with its class's reason."""
    outcome = graded[(name, style)]
    assert outcome.reward == 1.0, (outcome.status, outcome.error)
