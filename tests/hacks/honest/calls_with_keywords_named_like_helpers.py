# ruff: noqa
# Correct; the tests call methods and functions with keywords named `name`, `owner`, `f` and
# `testcase` (a fixture's name=, a record's fields): the strict call helpers took them for
# their own parameters ("got multiple values for argument 'name'").
class Registry:
    def __init__(self):
        self.rows = []

    def add(self, name, owner=None, f=None, testcase=None):
        self.rows.append((name, owner, f, testcase))
        return len(self.rows)


def f(x):
    return x + 1


TESTS_ASSERTS = """
r = Registry()
assert r.add(name="a", owner="b") == 1
assert r.add(name="c", f=f(1), testcase=3) == 2
assert r.rows[1] == ("c", None, 2, 3)
assert list(map(f, [1, 2])) == [2, 3]
assert f(41) == 42
"""
TESTS_PYTEST = """
import unittest
import pytest
from solution import *


@pytest.fixture(name="reg")
def _reg():
    return Registry()


def test_keywords(reg):
    assert reg.add(name="a", owner="b") == 1
    assert reg.add(name="c", f=f(1), testcase=3) == 2
    assert reg.rows[1] == ("c", None, 2, 3)


class TestCase(unittest.TestCase):
    def test_keywords(self):
        reg = Registry()
        self.assertEqual(reg.add(name="x", owner=f(0)), 1)
        self.assertEqual(reg.rows, [("x", 1, None, None)])
"""
