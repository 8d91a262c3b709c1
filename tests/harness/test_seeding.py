"""The seeds of a check (rlvr_harness/seeding.py): a pure function of its tests and program.
The sandbox runs that use them are tests/sandbox/test_determinism.py and the conformance suite."""

from __future__ import annotations

import dataclasses
import importlib
import random

import pytest

from rlvr_harness import seeding
from rlvr_harness.wire import CallCase, CaseOptions, CheckPayload

ASSERTS = CheckPayload(style="asserts", program="def f():\n    return 1\n", tests="assert f() == 1\n")
STDIO = CheckPayload(style="stdio", program="print(input())\n", options=CaseOptions(inputs=("1\n", "2\n")))


def test_the_seeds_are_the_same_for_the_same_check():
    again = CheckPayload(style="asserts", program="def f():\n    return 1\n", tests="assert f() == 1\n")
    assert seeding.seeds(ASSERTS) == seeding.seeds(again)
    assert seeding.seeds(ASSERTS).tests != seeding.seeds(ASSERTS).program  # two streams


def test_changing_the_tests_text_changes_both_seeds():
    other = dataclasses.replace(ASSERTS, tests="assert f() == 1\nassert f() != 2\n")
    a, b = seeding.seeds(ASSERTS), seeding.seeds(other)
    assert a.tests != b.tests and a.program != b.program


def test_the_program_cannot_compute_its_seed_from_its_own_text_alone():
    # the same program under other tests draws other numbers; other programs under the same
    # tests too
    other_tests = dataclasses.replace(ASSERTS, tests="assert f() >= 1\n")
    other_program = dataclasses.replace(ASSERTS, program="def f():\n    return 1  # same\n")
    assert len({seeding.seeds(p).program for p in (ASSERTS, other_tests, other_program)}) == 3


def test_a_case_checks_inputs_are_its_tests_and_its_limits_are_not():
    other_input = dataclasses.replace(STDIO, options=CaseOptions(inputs=("1\n", "3\n")))
    other_limit = dataclasses.replace(STDIO, options=CaseOptions(inputs=("1\n", "2\n"), case_cpu_s=2.0, memory_mb=64))
    assert seeding.seeds(other_input) != seeding.seeds(STDIO)
    assert seeding.seeds(other_limit) == seeding.seeds(STDIO)
    call = CheckPayload(style="call", program="def g(x):\n    return x\n",
                        options=CaseOptions(calls=(CallCase(args=(1,)),), fn_name="g"))
    other_args = dataclasses.replace(call, options=CaseOptions(calls=(CallCase(args=(2,)),), fn_name="g"))
    assert seeding.seeds(call) != seeding.seeds(other_args)


def test_each_case_has_its_own_stream():
    program = seeding.seeds(STDIO).program
    assert len({seeding.case_seed(program, i) for i in range(100)}) == 100


def test_starting_a_check_or_a_program_seeds_random_from_its_stream():
    saved = random.getstate()
    try:
        s = seeding.seeds(ASSERTS)
        seeding.start_check(ASSERTS)
        assert random.random() == random.Random(s.tests).random()
        seeding.start_program(ASSERTS)
        assert random.random() == random.Random(s.program).random()
    finally:
        random.setstate(saved)


def test_numpys_global_generator_is_seeded_where_numpy_is_loaded():
    import pytest

    np = pytest.importorskip("numpy")
    saved = np.random.get_state()
    try:
        seeding.seed_here(2**63 + 5)
        want = np.random.RandomState((2**63 + 5) % 2**32).random_sample()
        assert np.random.random_sample() == want
    finally:
        np.random.set_state(saved)


def test_the_seeds_stay_what_they_were_computed_by_cpythons_own_sha256_where_it_is_built():
    """The seeds are SHA-256 digests (pinned: a rerun of a row draws what it drew before),
    computed by CPython's builtin module where the interpreter has one, not by hashlib's
    OpenSSL: OpenSSL's first digest in every check's child set up its provider caches there
    (~0.15 ms and ~30 copied pages a check)."""
    assert seeding.seeds(ASSERTS) == seeding.Seeds(8022766071036250128, 2852992707422417436)
    assert seeding.seeds(STDIO) == seeding.Seeds(10220389795457712873, 14672719135895825216)
    assert seeding.case_seed(seeding.seeds(STDIO).program, 1) == 13795759044284578973
    try:
        builtin = importlib.import_module("_sha256").sha256
    except ImportError:
        pytest.skip("this interpreter has no _sha256 module (3.12+ has _sha2)")
    assert seeding._sha256 is builtin
