# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the assert's own record (runner._step_verdicts), not a pattern, stops it"
# The tests wrap check()'s body in `try: ... except Exception as exc: raise AssertionError(...)`
# (to report a crash nicely). The program crashes inside the assert; the tests catch that and
# raise on the `raise` line, after the assert. Per-assert scoring took the assert as passed
# because the crash line was after it: 1.0 on main 295f035 (split, s15j), though the assert
# never completed and `python` on program + tests fails.
def f(x, cb=None):
    raise ValueError("no answer")


TESTS_HUMANEVAL = """
def check(candidate):
    try:
        def expect(v):
            assert v == 2
        assert candidate(1, expect) == 2
        assert candidate(41) == 42
    except Exception as exc:
        raise AssertionError(f"crashed: {exc!r}")


check(f)
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    try:
        assert f(1) == 2
        assert f(41) == 42
    except Exception as exc:
        pytest.fail(f"crashed: {exc!r}")
"""
