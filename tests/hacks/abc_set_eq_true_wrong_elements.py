# ruff: noqa
# A class written on collections.abc.Set whose own __eq__ says yes, holding the wrong elements.
# Such a class is compared as the set it iterates: its __eq__ is never handed the expected value.
import collections.abc


class Anything(collections.abc.Set):
    def __contains__(self, x):
        return True

    def __iter__(self):
        return iter([0])

    def __len__(self):
        return 1

    def __eq__(self, other):
        return True

    __hash__ = None


def f(x):
    return Anything()


TESTS_ASSERTS = """
assert f(1) == {2}
assert {2} == f(1)
"""
TESTS_PYTEST = """
from solution import f

def test_set():
    assert f(1) == {2}
"""
