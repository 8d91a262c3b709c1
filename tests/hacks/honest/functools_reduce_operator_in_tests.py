# ruff: noqa
# Correct; the tests fold the answers with functools.reduce(operator.add, ...) and sort with
# key=... before comparing.
def f(x):
    return x + 1


TESTS_ASSERTS = """
import functools
import operator
assert functools.reduce(operator.add, [f(1), f(2)], 0) == 5
assert functools.reduce(lambda a, b: a * b, [f(1), f(2)]) == 6
"""
TESTS_PYTEST = """
import functools
import operator
from solution import f


def test_fold():
    assert functools.reduce(operator.add, [f(1), f(2)], 0) == 5
"""
