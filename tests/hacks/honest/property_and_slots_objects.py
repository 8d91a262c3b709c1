# ruff: noqa
# Correct; the program's class uses __slots__, properties, __eq__ and __hash__; the tests
# compare its objects with each other, put them in sets and read properties.
class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y

    @property
    def norm1(self):
        return abs(self.x) + abs(self.y)

    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


def f(x):
    return x + 1


def shift(p):
    return Point(f(p.x), p.y)


TESTS_ASSERTS = """
assert shift(Point(1, 2)) == Point(2, 2)
assert shift(Point(1, 2)) != Point(1, 2)
assert len({shift(Point(0, 0)), Point(1, 0)}) == 1
assert shift(Point(-3, 4)).norm1 == 6
"""
TESTS_PYTEST = """
from solution import *


def test_points():
    assert shift(Point(1, 2)) == Point(2, 2)
    assert len({shift(Point(0, 0)), Point(1, 0)}) == 1
    assert shift(Point(-3, 4)).norm1 == 6
"""
