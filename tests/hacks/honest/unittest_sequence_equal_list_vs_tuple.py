# ruff: noqa
# Correct; returns a tuple where the tests' expected value is a list: unittest's
# assertSequenceEqual compares elements, not sequence types (its documented behaviour).
def f(x):
    return x + 1


def pair(x):
    return (f(x), f(x + 1))


TESTS_PYTEST = """
import unittest
from solution import f, pair


class TestPair(unittest.TestCase):
    def test_pair(self):
        self.assertEqual(f(1), 2)
        self.assertSequenceEqual(pair(1), [2, 3])
"""
