"""A check's reward is a pure function of (completion, tests): rows whose tests or program draw
random numbers get the same reward on every run, at any concurrency, in any order of rows
(rlvr_harness/seeding.py; docs/fidelity.md "Determinism"). The real local sandbox; every backend
in tests/sandbox/test_conformance.py.

Without the seeding each of these fails: `random` reseeds itself from the OS in every forked
check and case, so the draws (and the verdicts built on them) change from run to run."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.scoring.rewards import RewardConfig
from rlvr_grade.types import Limits, Rollout
from rlvr_harness import seeding
from tests.conftest import requires_root

pytestmark = requires_root

LIMITS = Limits(cpu_s=10.0, wall_s=30.0, memory_mb=256, processes=32)
FLIPS = 24

# The program answers with random numbers; the tests keep the draws that land low.
COIN = "import random\n\n\ndef flip():\n    return random.random()\n"
COIN_ASSERTS = "".join(f"assert flip() < 0.5\n" for _ in range(FLIPS))  # noqa: F541 - one line each
# ClassEval_58's shape: a unittest class counting mines the program places with
# random.randint; two mines on one cell fail a correct program (a quarter of the time here).
MINES = ("import random\n\n\nclass Board:\n    def __init__(self, n, k):\n        self.cells = set()\n"
         "        for _ in range(k):\n            self.cells.add((random.randint(0, n - 1), random.randint(0, n - 1)))\n")
MINES_UNITTEST = ("import unittest\nfrom solution import *\n\n\nclass TestBoard(unittest.TestCase):\n"
                  + "".join(f"    def test_two_mines_{i}(self):\n        self.assertEqual(len(Board(2, 2).cells), 2)\n\n"
                            for i in range(16)))
# The tests draw their own inputs (random in the tests' process, not the program's).
DRAWN_INPUTS = "import random\n\n\ndef keep(x):\n    return x\n"
DRAWN_ASSERTS = "import random\n" + "".join("assert keep(random.random()) < 0.5\n" for _ in range(FLIPS))
# A stdio program whose cases pass when its draw is low (the rest of the row's cases stop at
# the first failure: the reward says where it stopped).
STDIO_FLIP = "import random\nprint(int(random.random() < 0.5))\n"
STDIO_CASES = [{"input": f"{i}\n", "output": "1"} for i in range(FLIPS)]
CALL_FLIP = "import random\n\n\ndef low(i):\n    return random.random() < 0.5\n"
CALL_CASES = {"fn_name": "low", "inputs": [[i] for i in range(FLIPS)], "outputs": [True] * FLIPS}
# A set of strings printed as Python iterates it: its order is the hash seed's.
WORDS = "the quick brown fox jumps over the lazy dog while seven wizards vex"
PRINT_SET = f"print(set({WORDS!r}.split()))\n"

ROWS = [
    {"completion": COIN, "tests": COIN_ASSERTS},
    {"completion": MINES, "tests": MINES_UNITTEST},
    {"completion": DRAWN_INPUTS, "tests": DRAWN_ASSERTS},
    {"completion": STDIO_FLIP, "tests": STDIO_CASES},
    {"completion": CALL_FLIP, "tests": CALL_CASES},
    {"completion": PRINT_SET, "tests": [{"input": "", "output": "{'the'}"}]},
]


def _verdicts(outcomes) -> list[tuple]:
    return [(o.status, o.reward, o.tests_passed, o.tests_total) for o in outcomes]


@pytest.fixture(scope="module", params=[1, 3], ids=["concurrency-1", "concurrency-3"])
def backend_at(request):
    from rlvr_grade.sandbox.local import LocalBackend

    b = LocalBackend(concurrency=request.param)
    b.start()
    yield b
    b.close()


def _grade(backend, rows: list[dict], cache) -> list[tuple]:
    """One run: a Grader of its own result cache (a Grader's cache would serve the rows again)
    on the shared backend, fraction rewards (a reward then tells which of a row's draws landed
    low, not only whether all did)."""
    opts = ScoreOptions(checks=CheckOptions(limits=LIMITS), reward=RewardConfig(shape="fraction"),
                        concurrency=backend.concurrency, retry_delay=0.05, cache=str(cache))
    return _verdicts(Grader(opts, backend=backend).grade(rows))


@pytest.fixture(scope="module")
def first_run():
    """The verdicts of the first backend to run (compared with the other concurrency's)."""
    return []


def test_random_rows_get_the_same_reward_every_run_at_any_concurrency_in_any_order(backend_at, first_run, tmp_path):
    runs = [_grade(backend_at, ROWS, tmp_path / "1.sqlite"), _grade(backend_at, ROWS, tmp_path / "2.sqlite"),
            _grade(backend_at, ROWS[::-1], tmp_path / "3.sqlite")[::-1]]
    assert runs[0] == runs[1] == runs[2], runs
    if not first_run:
        first_run.append(runs[0])
    assert runs[0] == first_run[0], (runs[0], first_run[0])
    # the rows depend on their draws at all: a coin-flip row with every flip alike is 2**-23 likely
    coin = runs[0][0]
    assert coin[0] == "fail" and 0 < coin[2] < FLIPS, coin
    assert all(v[0] in ("pass", "fail") for v in runs[0]), runs[0]


# -- the draws themselves ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def backend():
    from rlvr_grade.sandbox.local import LocalBackend

    b = LocalBackend(concurrency=2)
    b.start()
    yield b
    b.close()


def _outputs(backend, program: str, cases: list[dict]) -> tuple[list[str], object]:
    check = build_check(Rollout(index=0, row={"completion": program, "tests": cases}), CheckOptions(limits=LIMITS))
    ex = backend.run(check)
    assert ex.done, ex
    return [r.output for r in ex.records], check


DRAWS = "import random\nprint(random.getrandbits(64), random.random())\n"


def test_a_case_draws_from_the_rows_own_seed(backend):
    outs, check = _outputs(backend, DRAWS, [{"input": "a\n", "output": ""}, {"input": "b\n", "output": ""}])
    program = seeding.seeds(check.payload()).program
    want = []
    for i in range(2):
        r = random.Random(seeding.case_seed(program, i))
        want.append(f"{r.getrandbits(64)} {r.random()}\n")
    assert outs == want
    assert outs[0] != outs[1]  # each case its own stream


def test_other_tests_give_the_same_program_other_draws(backend):
    first, _ = _outputs(backend, DRAWS, [{"input": "a\n", "output": ""}])
    again, _ = _outputs(backend, DRAWS, [{"input": "a\n", "output": ""}])
    other, _ = _outputs(backend, DRAWS, [{"input": "b\n", "output": ""}])
    assert first == again
    assert first != other


def test_a_set_of_strings_iterates_as_under_hash_seed_0(backend):
    outs, _ = _outputs(backend, PRINT_SET, [{"input": "", "output": ""}])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"} | {"PYTHONHASHSEED": "0"}
    want = subprocess.run([sys.executable, "-c", PRINT_SET], capture_output=True, text=True, env=env, check=True).stdout
    assert outs == [want]


NUMPY_DRAWS = "import numpy as np\nprint(np.random.randint(0, 2**31, size=4).tolist(), np.random.random())\n"


def test_numpys_global_generator_is_seeded_too(numpy_env):
    import numpy

    from rlvr_grade.sandbox.local import LocalBackend

    b = LocalBackend(concurrency=1)
    b.add_environment(numpy_env)
    b.start()
    try:
        check = build_check(Rollout(index=0, row={"completion": NUMPY_DRAWS, "tests": [{"input": "", "output": ""}]}),
                            CheckOptions(limits=LIMITS))
        check = dataclasses.replace(check, env=numpy_env.id)
        outs = [[r.output for r in b.run(check).records] for _ in range(2)]
    finally:
        b.close()
    state = numpy.random.RandomState(seeding.case_seed(seeding.seeds(check.payload()).program, 0) % (1 << 32))
    assert outs == [[f"{state.randint(0, 2**31, size=4).tolist()} {state.random_sample()}\n"]] * 2
