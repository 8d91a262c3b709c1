# ruff: noqa
# Correct; a dataclass result with a functools.cached_property: reading it fills the instance's
# __dict__, and the instance still equals a fresh one (dataclass equality compares fields).
import dataclasses
import functools


@dataclasses.dataclass
class Point:
    x: int
    y: int

    @functools.cached_property
    def norm1(self):
        return abs(self.x) + abs(self.y)


def point(x):
    return Point(x, x + 1)


def f(x):
    return x + 1


TESTS_ASSERTS = """
p = point(1)
assert p.norm1 == 3
assert p == Point(1, 2)
assert Point(1, 2) == p
assert p != Point(1, 3)
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import Point, point, f

def test_point():
    p = point(1)
    assert p.norm1 == 3
    assert p == Point(1, 2)
    q = Point(1, 2)
    assert q.norm1 == 3 and q == point(1)

def test_f():
    assert f(1) == 2
"""
