# ruff: noqa
# Correct; the program names objects like standard modules (a deque called `queue`, a str
# called `string`, a class called `array`) and imports math under an alias; the tests use
# them through the program's namespace, and import modules the program re-exports.
import math as m
from collections import deque

queue = deque()
string = "hello"


class array:
    @staticmethod
    def total(xs):
        return sum(xs)


def f(x):
    queue.append(x)
    return x + 1


TESTS_ASSERTS = """
assert f(1) == 2
assert queue.popleft() == 1
assert string.upper() == "HELLO"
assert array.total([1, 2]) == 3
assert m.isclose(f(0.5), 1.5)
assert m.pi > 3
"""
TESTS_PYTEST = """
import math
import collections
from solution import *


def test_f():
    assert f(1) == 2
    assert queue.popleft() == 1
    assert string.upper() == "HELLO"
    assert array.total([1, 2]) == 3
    assert m.isclose(f(0.5), 1.5)
    assert math.isclose(f(0.25), 1.25)
    assert collections.Counter([f(1)]) == {2: 1}
"""
