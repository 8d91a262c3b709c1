# ruff: noqa
# Correct; the program returns its own dataclasses (ordered, frozen) and namedtuples; the tests
# compare them with instances they build from the program's classes and with plain tuples,
# unpack them, sort them, use them as dict keys, and call dataclasses/namedtuple helpers on them.
import dataclasses
from collections import namedtuple
from typing import NamedTuple


def f(x):
    return x + 1


@dataclasses.dataclass(order=True)
class Item:
    price: int
    name: str = ""
    tags: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


Pair = namedtuple("Pair", "left right")


class Span(NamedTuple):
    start: int
    end: int

    def length(self):
        return self.end - self.start


def cheapest(items):
    return min(items)


def midpoint(a, b):
    return Point((a.x + b.x) // 2, (a.y + b.y) // 2)


def split(xs):
    h = len(xs) // 2
    return Pair(xs[:h], xs[h:])


def span_of(xs):
    return Span(min(xs), max(xs))


TESTS_ASSERTS = """
import dataclasses
items = [Item(3, "c"), Item(1, "a", ["x"]), Item(2, "b")]
assert cheapest(items) == Item(1, "a", ["x"])
assert cheapest(items) is items[1]
assert sorted(items)[0].name == "a"
m = midpoint(Point(0, 0), Point(4, 6))
assert m == Point(2, 3)
assert dataclasses.asdict(m) == {"x": 2, "y": 3}
assert dataclasses.astuple(m) == (2, 3)
assert dataclasses.replace(m, y=0) == Point(2, 0)
assert {m: "mid"}[Point(2, 3)] == "mid"
try:
    m.x = 9
    assert False
except dataclasses.FrozenInstanceError:
    pass
p = split([1, 2, 3, 4])
assert p == ([1, 2], [3, 4])
left, right = p
assert left == [1, 2] and p.right == [3, 4]
assert p._replace(left=[]) == Pair([], [3, 4])
assert p._asdict() == {"left": [1, 2], "right": [3, 4]}
s = span_of([4, 9, 1])
assert s == Span(1, 9) and s == (1, 9) and s.length() == 8
assert isinstance(s, tuple) and s._fields == ("start", "end")
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
import dataclasses


def check(candidate):
    items = [Item(3, "c"), Item(1, "a", ["x"])]
    assert candidate(items) == Item(1, "a", ["x"])
    assert candidate(items) is items[1]
    m = midpoint(Point(0, 0), Point(4, 6))
    assert m == Point(2, 3)
    assert dataclasses.asdict(m) == {"x": 2, "y": 3}
    p = split([1, 2, 3, 4])
    assert p == ([1, 2], [3, 4])
    left, right = p
    assert left == [1, 2] and p.right == [3, 4]
    s = span_of([4, 9, 1])
    assert s == (1, 9) and s.length() == 8


check(cheapest)
"""
