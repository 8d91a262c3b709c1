# ruff: noqa
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


def make_point(x, y):
    return Point(x, y)


def f(x):
    return x + 1


TESTS_ASSERTS = """
assert make_point(1, 2) == make_point(1, 2)
assert make_point(1, 2) != make_point(2, 1)
assert [make_point(0, 0)] == [make_point(0, 0)]
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import make_point, f

def test_points():
    assert make_point(1, 2) == make_point(1, 2)
    assert make_point(1, 2) != make_point(2, 1)
    assert {make_point(0, 0)} == {make_point(0, 0)}

def test_f():
    assert f(1) == 2
"""
