# ruff: noqa
# Correct: a vector class the tests scale with a number on either side (`3 * v`, `v * 3`,
# `v / 2`) and compare with another vector. Arithmetic between a number and an object of the
# program's is refused (open, s15i): the object would see the number, which may be the tests'
# expected value (`abs(got - 1.5)`), and could turn it into a plain answer through __abs__,
# __float__ or __round__ later (docs/fidelity.md "kept strict").
class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Vec(self.x / k, self.y / k)

    def __eq__(self, other):
        return isinstance(other, Vec) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


def f(x):
    return x + 1


def unit(x):
    return Vec(f(x) - x, 0)


TESTS_ASSERTS = """
assert f(1) == 2
assert 3 * unit(5) == Vec(3, 0)
assert unit(5) * 3 == Vec(3, 0)
assert unit(2) / 2 == Vec(0.5, 0)
assert 2 * unit(1) + unit(1) == Vec(3, 0)
assert 2 * unit(1) != Vec(1, 0)
"""

TESTS_PYTEST = """
from solution import *


def test_scaled():
    assert f(1) == 2
    assert 3 * unit(5) == Vec(3, 0)
    assert unit(2) / 2 == Vec(0.5, 0)
    assert 2 * unit(1) != Vec(1, 0)
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestVec(unittest.TestCase):
    def test_scaled(self):
        self.assertEqual(3 * unit(5), Vec(3, 0))
        self.assertNotEqual(2 * unit(1), Vec(1, 0))
"""
