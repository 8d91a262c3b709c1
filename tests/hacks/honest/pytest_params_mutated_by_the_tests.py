# ruff: noqa
# Correct. The tests parametrize two test functions over the same module-level lists and the
# first sorts its list in place: the second gets the list as the first left it (pytest shares
# the objects). A check of parametrized values by content would call that tampering.
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import *

CASES = [[3, 1, 2], [5, 4]]


@pytest.mark.parametrize("xs", CASES)
def test_sorts_in_place(xs):
    xs.sort()
    assert [f(v) - 1 for v in xs] == sorted(xs)


@pytest.mark.parametrize("xs", CASES)
def test_after(xs):
    assert xs == sorted(xs)
    assert f(xs[0]) == xs[0] + 1
"""
