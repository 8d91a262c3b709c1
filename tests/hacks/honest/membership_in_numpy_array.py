# ruff: noqa
# Correct; the tests ask `x in array` of a numpy array the program returns: numpy's answer,
# `(array == x).any()`. Scored 0 before (an array answered no membership).
import numpy as np


def f(x):
    return x + 1


def grid(n):
    return np.arange(n * n).reshape(n, n)


TESTS_ASSERTS = """
assert 8 in grid(3) and 9 not in grid(3)
assert 2.0 in grid(2) and True in (grid(2) > 2)
assert f(1) == 2 and f(41) == 42
"""
TESTS_PYTEST = """
import unittest
from solution import f, grid


def test_membership():
    assert 8 in grid(3)
    assert 9 not in grid(3)
    assert f(1) == 2


class TestUnittest(unittest.TestCase):
    def test_assert_in(self):
        self.assertIn(3, grid(2))
        self.assertNotIn(4, grid(2))
"""
