# ruff: noqa
# Correct; returns collections.UserList / ChainMap values, which Python compares equal to the
# list / dict they hold.
import collections


def f(x):
    return x + 1


def many(xs):
    return collections.UserList(f(x) for x in xs)


def merged(a, b):
    return collections.ChainMap(a, b)


TESTS_ASSERTS = """
assert f(1) == 2
assert many([1, 2]) == [2, 3]
assert merged({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}
"""
TESTS_PYTEST = """
from solution import f, many, merged


def test_f():
    assert many([1, 2]) == [2, 3]
    assert merged({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}
"""
