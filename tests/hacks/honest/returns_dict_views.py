# ruff: noqa
# Correct, returning dict views and a mappingproxy where the tests expect sets and dicts.
import types


def f(x):
    return x + 1


def keys(d):
    return d.keys()


def frozen(d):
    return types.MappingProxyType(dict(d))


TESTS_ASSERTS = """
assert keys({1: 0, 2: 0}) == {1, 2}
assert frozen({"a": 1}) == {"a": 1}
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import keys, frozen, f


def test_views():
    assert keys({1: 0, 2: 0}) == {1, 2}
    assert frozen({"a": 1}) == {"a": 1}
    assert f(1) == 2
"""
