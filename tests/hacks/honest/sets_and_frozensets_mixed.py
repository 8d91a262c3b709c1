# ruff: noqa
# Correct, returning frozensets where the tests expect sets (Python says equal).
def f(x):
    return x + 1


def uniq(xs):
    return frozenset(xs)


TESTS_ASSERTS = """
assert uniq([1, 2, 2]) == {1, 2}
assert {uniq([1])} == {frozenset({1})}
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import uniq, f


def test_sets():
    assert uniq([1, 2, 2]) == {1, 2}
    assert f(1) == 2
"""
