# ruff: noqa
# Correct; the tests call library functions imported by name with the program's plain results,
# its own objects and callbacks: operator, math, statistics, functools, itertools, heapq,
# json, dataclasses, collections.
from dataclasses import dataclass


@dataclass
class Item:
    name: str
    qty: int


def f(x):
    return x + 1


def items():
    return [Item("a", f(0)), Item("b", f(1))]


TESTS_ASSERTS = """
from operator import eq, le, itemgetter, attrgetter
from math import isclose, fsum
from statistics import mean
from functools import reduce, partial
from itertools import starmap, accumulate
from heapq import nsmallest
from json import dumps
from dataclasses import asdict, astuple
from collections import Counter
assert eq(f(1), 2)
assert le(f(0), 1)
assert isclose(f(0.5), 1.5)
assert fsum([f(0.1), f(0.2)]) == 2.3
assert mean([f(1), f(3)]) == 3
assert reduce(lambda a, b: a + b, map(f, [1, 2])) == 5
assert list(starmap(lambda a, b: f(a) + b, [(1, 1)])) == [3]
assert list(accumulate([f(0), f(0)])) == [1, 2]
assert nsmallest(1, [f(5), f(2)]) == [3]
assert dumps([f(1)]) == "[2]"
assert asdict(items()[0]) == {"name": "a", "qty": 1}
assert astuple(items()[1]) == ("b", 2)
assert sorted(items(), key=attrgetter("qty"))[0].name == "a"
assert list(map(itemgetter(0), [(f(1), 0)])) == [2]
assert partial(f, 41)() == 42
assert Counter(map(f, [1, 1])) == {2: 2}
"""
TESTS_PYTEST = """
from operator import eq
from math import isclose
from dataclasses import asdict
from solution import *


def test_by_name():
    assert eq(f(1), 2)
    assert isclose(f(0.5), 1.5)
    assert asdict(items()[0]) == {"name": "a", "qty": 1}
"""
