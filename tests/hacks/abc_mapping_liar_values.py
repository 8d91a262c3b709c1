# ruff: noqa
# A collections.abc.Mapping whose values are always-equal objects and whose __contains__ says
# yes to every key: compared as its items, each value by the allowlist (a liar equals nothing
# trusted).
import collections.abc


class Liar:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class Lying(collections.abc.Mapping):
    def __getitem__(self, k):
        return Liar()

    def __contains__(self, k):
        return True

    def __iter__(self):
        return iter(["v"])

    def __len__(self):
        return 1


def f(x):
    return Lying()


TESTS_ASSERTS = """
assert f(1) == {"v": 2}
"""
TESTS_PYTEST = """
from solution import f

def test_mapping():
    assert f(1) == {"v": 2}
"""
