# ruff: noqa
# Correct; returns members of the program's own Enum (not IntEnum), compared with the same
# members by == and is, in sets and as dict keys.
import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


def f(x):
    return x + 1


def pick(n):
    return Color.RED if n == 1 else Color.GREEN


TESTS_ASSERTS = """
assert f(1) == 2
assert pick(1) == Color.RED
assert pick(2) is Color.GREEN
assert pick(1) != Color.GREEN
assert {pick(1), pick(2)} == {Color.RED, Color.GREEN}
assert {Color.RED: "r"}[pick(1)] == "r"
assert [pick(1), pick(2)] == [Color.RED, Color.GREEN]
"""
TESTS_PYTEST = """
from solution import *


def test_enum():
    assert f(1) == 2
    assert pick(1) == Color.RED
    assert pick(2) is Color.GREEN
    assert pick(1) != Color.GREEN
    assert {pick(1), pick(2)} == {Color.RED, Color.GREEN}
    assert [pick(1), pick(2)] == [Color.RED, Color.GREEN]
"""
