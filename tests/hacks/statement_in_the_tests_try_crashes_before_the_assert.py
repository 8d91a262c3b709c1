# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the assert's own record (runner._step_verdicts), not a pattern, stops it"
# check() computes the answer in a statement of its own (`got = candidate(1)`) inside a
# `try/except Exception` that raises again on a later line. The program crashes there: the
# assert after it is never entered, yet sat before the crash line and counted as passed (1.0
# on main 295f035).
def f(x):
    raise ValueError("no answer")


TESTS_HUMANEVAL = """
def check(candidate):
    try:
        got = candidate(1)
        assert got == 2
    except Exception as exc:
        raise AssertionError(f"crashed: {exc!r}")


check(f)
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    try:
        got = f(1)
        assert got == 2
    except Exception as exc:
        pytest.fail(f"crashed: {exc!r}")
"""
