# ruff: noqa
# Correct, returning objects of its own class with a sound __eq__, compared with each other
# (ClassEval's shape).
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return isinstance(other, Money) and other.cents == self.cents

    def __hash__(self):
        return hash(self.cents)

    def __add__(self, other):
        return Money(self.cents + other.cents)


def f(x):
    return x + 1


def add(a, b):
    return Money(a) + Money(b)


TESTS_ASSERTS = """
assert add(1, 2) == add(2, 1)
assert add(1, 2) != add(1, 1)
assert [add(0, 1)] == [add(1, 0)]
assert add(1, 1) + add(0, 1) == add(1, 2)
assert f(1) == 2
"""
TESTS_PYTEST = """
import unittest
from solution import add, f


class TestMoney(unittest.TestCase):
    def test_eq(self):
        self.assertEqual(add(1, 2), add(2, 1))
        self.assertNotEqual(add(1, 2), add(1, 1))
        self.assertIn(add(0, 1), [add(1, 0)])
        self.assertEqual(f(1), 2)
"""
