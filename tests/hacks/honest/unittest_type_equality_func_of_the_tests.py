# ruff: noqa
# Correct. The tests register their own comparison for the program's class with
# self.addTypeEqualityFunc(Point, self.assertPointEqual), and unittest's assertEqual calls it
# for two Points. The strict assertEqual compared them by the class's own __eq__ (none:
# identity) and failed (0, s15i's held-out set). Now the function the tests registered for
# that exact type decides, when it is the tests' own code.
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def f(x):
    return x + 1


def mid(a, b):
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)


TESTS_UNITTEST = """
import unittest
from solution import *


class TestMid(unittest.TestCase):
    def setUp(self):
        self.addTypeEqualityFunc(Point, self.assertPointEqual)

    def assertPointEqual(self, a, b, msg=None):
        if (a.x, a.y) != (b.x, b.y):
            raise self.failureException(msg or f"({a.x}, {a.y}) != ({b.x}, {b.y})")

    def test_mid(self):
        self.assertEqual(f(1), 2)
        self.assertEqual(mid(Point(0, 0), Point(2, 4)), Point(1, 2))
        self.assertEqual(mid(Point(1, 1), Point(1, 1)), Point(1.0, 1.0), "same point")
"""
