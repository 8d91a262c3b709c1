# ruff: noqa
# Recursion as deep as the reference run allows at the default limit: a plain `python` run
# of the program and a check() leaves 997 frames under check(), `python -m pytest` ~960 under a
# test function. The harness's own frames sit under the tests here: it was a RecursionError
# from 982 deep under check() (fidh) and from ~950 under pytest. A unittest.TestCase method
# under `python -m unittest` has 976 (ours ran it through pytest: 959, until s15i).
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def f(x):
    return x + 1 + depth(990) - 990


def g(x):
    return x + 1 + depth(955) - 955


def h(x):
    return x + 1 + depth(972) - 972


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1) == 2
    assert candidate(-3) == -2


check(f)
"""

TESTS_PYTEST = """
from solution import *


def test_g():
    assert g(1) == 2
    assert g(-3) == -2
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestH(unittest.TestCase):
    def test_h(self):
        self.assertEqual(h(1), 2)
        self.assertEqual(h(-3), -2)
"""
