# ruff: noqa
# Correct; the tests compare multisets the idiomatic way: Counter subtraction and addition.
from collections import Counter


def f(x):
    return x + 1


def g(xs):
    return [f(x) for x in xs]


TESTS_ASSERTS = """
from collections import Counter
assert not (Counter(g([1, 2, 2])) - Counter([2, 3, 3]))
assert Counter(g([1])) + Counter([5]) == Counter({2: 1, 5: 1})
"""
TESTS_PYTEST = """
from collections import Counter
from solution import g


def test_multiset():
    assert not (Counter(g([1, 2, 2])) - Counter([2, 3, 3]))
    assert Counter(g([1])) + Counter([5]) == Counter({2: 1, 5: 1})
"""
