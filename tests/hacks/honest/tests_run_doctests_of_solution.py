# ruff: noqa
# Correct; the tests run the program's own doctests with the doctest module.
def f(x):
    """
    >>> f(1)
    2
    >>> [f(i) for i in range(3)]
    [1, 2, 3]
    """
    return x + 1


TESTS_ASSERTS = """
import doctest
import sys
assert doctest.testmod(sys.modules["solution"]).failed == 0
assert f(41) == 42
"""
TESTS_PYTEST = """
import doctest
import solution
from solution import f


def test_doctests():
    result = doctest.testmod(solution)
    assert result.failed == 0 and result.attempted == 2
    assert f(41) == 42
"""
