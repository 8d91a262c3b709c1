"""The program in a process of its own (SuiteOptions.split; docs/fidelity.md, "The program in a
process of its own"), through the real sandbox: honest programs keep their verdicts (each case
graded split and in-process, the same reward), what the tests' process can no longer be made to
run scores 0 (red team rtz's open classes, tests/hacks/open/), and a program that dies or exits
never makes a pass."""

from __future__ import annotations

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions
from rlvr_grade.types import Limits
from tests.conftest import TESTS, requires_root
from tests.harness.test_open_red_team import OPEN_HACK_CLASSES, STANDARD, _own_tests

pytestmark = requires_root

# name -> (program, tests, reward): honest cases of what crosses between the two processes
HONEST = {
    "plain_values": ("def f(x):\n    return [x, (x, {x}), {'k': x}, frozenset({x}), b'x', 1.5, None, 2 ** 20000]\n",
                     "assert f(1) == [1, (1, {1}), {'k': 1}, frozenset({1}), b'x', 1.5, None, 2 ** 20000]\n", 1.0),
    "argument_mutated_in_place": ("def f(lst, d, s, b):\n    lst.append(3)\n    d['k'] = 1\n    s.add(2)\n    b[0] = 65\n",
                                  "a, d, s, b = [1], {}, set(), bytearray(b'x')\nf(a, d, s, b=b)\n"
                                  "assert a == [1, 3]\nassert d == {'k': 1}\nassert s == {2}\nassert b == bytearray(b'A')\n", 1.0),
    "sort_in_place_humaneval": ("def f(xs):\n    xs.sort()\n    return None\n",
                                "def check(candidate):\n    xs = [3, 1, 2]\n    candidate(xs)\n    assert xs == [1, 2, 3]\n\n\ncheck(f)\n",
                                1.0),
    "generator": ("def f(n):\n    for i in range(n):\n        yield i * i\n",
                  "assert list(f(4)) == [0, 1, 4, 9]\nassert sum(f(3)) == 5\nassert next(f(2)) == 0\n", 1.0),
    "program_class": ("class Stack:\n    kind = 'lifo'\n    def __init__(self):\n        self.items = []\n"
                      "    def push(self, x):\n        self.items.append(x)\n        return self\n"
                      "    def __len__(self):\n        return len(self.items)\n"
                      "    def __getitem__(self, i):\n        return self.items[i]\n",
                      "s = Stack()\ns.push(1).push(2)\nassert isinstance(s, Stack)\nassert not isinstance(3, Stack)\n"
                      "assert len(s) == 2\nassert s[-1] == 2\nassert s.items == [1, 2]\nassert Stack.kind == 'lifo'\n", 1.0),
    "program_exception_class": ("class Bad(ValueError):\n    pass\ndef f(x):\n    if x < 0:\n        raise Bad('negative', x)\n    return x\n",
                                "try:\n    f(-1)\n    ok = False\nexcept ValueError as e:\n    ok = e.args == ('negative', -1)\n"
                                "assert ok\nassert f(2) == 2\n", 1.0),
    "builtin_exception": ("def f(d):\n    return d['missing']\n",
                          "try:\n    f({})\n    caught = None\nexcept KeyError as e:\n    caught = e.args\nassert caught == ('missing',)\n",
                          1.0),
    "global_state_across_calls": ("seen = []\ndef f(x):\n    seen.append(x)\n    return len(seen)\n",
                                  "assert f('a') == 1\nassert f('b') == 2\nassert seen == ['a', 'b']\n", 1.0),
    "recursion_as_deep_as_a_script": ("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n",
                                      "def check(candidate):\n    assert candidate(980) == 980\n\n\ncheck(f)\n", 1.0),
    "prints": ("def f(x):\n    print('f of', x)\n    return x + 1\n", "assert f(1) == 2\n", 1.0),
    "trusted_types": ("import datetime\nfrom fractions import Fraction\nfrom decimal import Decimal\n"
                      "def f(x):\n    return Fraction(x, 2), Decimal('1.5'), datetime.date(2020, 1, x), datetime.timedelta(days=x)\n",
                      "import datetime\nfrom fractions import Fraction\nfrom decimal import Decimal\n"
                      "assert f(2) == (1, Decimal('1.5'), datetime.date(2020, 1, 2), datetime.timedelta(days=2))\n", 1.0),
    "wrong_answer": ("def f(x):\n    return x\n", STANDARD["humaneval"], 0.0),
    "a_program_object_is_not_a_plain_value": ("class Always:\n    def __eq__(self, other):\n        return True\n"
                                              "def f(x):\n    return Always()\n", STANDARD["asserts"], 0.0),
}

# name -> (program, tests): a program that exits, crashes or dies never makes a pass
DEAD = {
    "sys_exit_at_import": ("import sys\nsys.exit(0)\ndef f(x):\n    return x + 1\n", STANDARD["asserts"]),
    "sys_exit_in_a_call": ("import sys\ndef f(x):\n    sys.exit(0)\n", STANDARD["humaneval"]),
    "os_exit_in_a_call_the_tests_catch": ("import os\ndef f(x):\n    os._exit(0)\n",
                                          "try:\n    f(1)\nexcept BaseException:\n    pass\nassert True\n"),
    "killed_mid_call": ("import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGKILL)\n",
                        "def check(candidate):\n    try:\n        candidate(1)\n    except BaseException:\n        pass\n    assert True\n\n\ncheck(f)\n"),
    "crash_at_import": ("raise RuntimeError('no')\n", STANDARD["asserts"]),
}

OPEN_HACKS = TESTS / "hacks" / "open"
RTZ_STEMS = {stem for cls in ("finalizer", "unheld_state", "liar_key") for stem in OPEN_HACK_CLASSES[cls][0]}
RTZ = [(path.stem, style) for path in sorted(OPEN_HACKS.glob("*.py")) if path.stem in RTZ_STEMS
       for style in ("asserts", "humaneval") if style in (_own_tests(path) or STANDARD)]


def _grade(rows: list[dict], split: bool) -> list:
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=3.0), split=split), concurrency=2, retry_delay=0.05)
    with Grader(opts) as g:
        return list(g.grade(rows))


@pytest.fixture(scope="module")
def graded() -> dict[tuple[str, bool], object]:
    cases = {**{k: (p, t) for k, (p, t, _) in HONEST.items()}, **DEAD}
    for name, style in RTZ:
        path = OPEN_HACKS / f"{name}.py"
        cases[f"{name}/{style}"] = (path.read_text(), (_own_tests(path) or STANDARD)[style])
    rows = [{"completion": p, "tests": t} for p, t in cases.values()]
    out = {}
    for split in (True, False):
        out.update({(name, split): o for name, o in zip(cases, _grade(rows, split), strict=True)})
    return out


@pytest.mark.parametrize("name", HONEST)
def test_what_crosses_keeps_the_verdict(graded, name):
    want = HONEST[name][2]
    split, inproc = graded[(name, True)], graded[(name, False)]
    assert (split.reward, split.status) == (want, "pass" if want else split.status), (split.status, split.error)
    assert inproc.reward == want, (inproc.status, inproc.error)


def test_the_programs_process_draws_from_the_rows_own_seed():
    """The program's process is seeded from the program's stream after the fork (seeding.py):
    the same row gets the same draws every run (24 coin flips, counted one by one)."""
    from rlvr_grade.scoring import RewardConfig

    row = {"completion": "import random\n\n\ndef flip():\n    return random.random()\n",
           "tests": "".join("assert flip() < 0.5\n" for _ in range(24))}
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=3.0), split=True), concurrency=2, retry_delay=0.05,
                        reward=RewardConfig(shape="fraction"))
    runs = []
    for _ in range(3):  # a grader of its own each time: one grader grades identical rows once
        with Grader(opts) as g:
            runs.append(g.grade([row])[0])
    assert all(o.status != "sandbox_error" for o in runs), runs
    assert len({o.reward for o in runs}) == 1, [o.reward for o in runs]


@pytest.mark.parametrize("name", DEAD)
def test_a_program_that_exits_or_dies_never_passes(graded, name):
    outcome = graded[(name, True)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)


@pytest.mark.parametrize("name,style", RTZ)
def test_state_of_the_tests_process_is_out_of_the_programs_reach(graded, name, style):
    """rtz's open classes (reseeded random, tzset, the re/encodings/_strptime/ZoneInfo caches, a
    liar key in struct's cache, finalizers with no frame): 1.0 in-process, 0 split."""
    outcome = graded[(f"{name}/{style}", True)]
    assert outcome.status != "sandbox_error", outcome
    assert outcome.reward == 0.0, (outcome.status, outcome.error)
