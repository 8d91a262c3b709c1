# ruff: noqa
# Correct, returning IntEnum members and bytearrays where the tests expect ints and bytes.
import enum


class Level(enum.IntEnum):
    ONE = 1
    TWO = 2


def f(x):
    return Level(x + 1) if x + 1 in (1, 2) else x + 1


def raw(s):
    return bytearray(s, "ascii")


TESTS_ASSERTS = """
assert f(1) == 2
assert f(0) == 1
assert raw("ab") == b"ab"
assert f(41) == 42
"""
TESTS_PYTEST = """
from solution import f, raw


def test_f():
    assert f(1) == 2
    assert raw("ab") == b"ab"
"""
