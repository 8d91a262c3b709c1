# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the assert's own record (runner._step_verdicts), not a pattern, stops it"
# Right on the first case, a crash on the second. check() loops over its cases inside a
# `try/except Exception` (or `break`s out of the loop on an exception and raises after it):
# the assert held once, then was entered again and never completed, and the crash line sits
# after the loop. Both scored 1.0 on main 295f035: a record that the assert held once is no
# record that its last evaluation did.
def f(x):
    if x == 1:
        return 2
    raise ValueError("no answer")


TESTS_HUMANEVAL = """
def check(candidate):
    try:
        for x in (1, 41):
            assert candidate(x) == x + 1
    except Exception as exc:
        raise AssertionError(f"crashed: {exc!r}")


def check_break(candidate):
    err = None
    for x in (1, 41):
        try:
            assert candidate(x) == x + 1
        except Exception as exc:
            err = exc
            break
    if err is not None:
        raise AssertionError(f"crashed: {err!r}")


check(f)
check_break(f)
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    try:
        for x in (1, 41):
            assert f(x) == x + 1
    except Exception as exc:
        pytest.fail(f"crashed: {exc!r}")
"""
