# ruff: noqa
# Correct; uses inspect.signature on its own function and on a callback the tests hand over,
# and inspect.getsource on itself.
import inspect


def f(x, cb=None):
    inspect.signature(f)
    if cb is not None:
        assert len(inspect.signature(cb).parameters) == 1
    return x + 1


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1, lambda v: v) == 2
    assert candidate(41) == 42


check(f)
"""
TESTS_PYTEST = """
from solution import f


def test_f():
    assert f(1, lambda v: v) == 2
"""
