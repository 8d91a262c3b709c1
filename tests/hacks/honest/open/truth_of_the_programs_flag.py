# ruff: noqa
# Correct: returns members of its own enum.Flag, and the tests ask their truth (`assert not
# perms("")`, the empty flag is falsy). The truth of an object of a class the program defined
# is refused (open, s15i): a __bool__ of the program's could answer `assert x` and `assert not
# y` by counting (tests/hacks/bool_always_true.py), and Flag's own __bool__ reads a value the
# program chose.
import enum


class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1


def f(x):
    return x + 1


def perms(s):
    p = Perm(0)
    for ch, v in zip("rwx", (Perm.R, Perm.W, Perm.X)):
        if ch in s:
            p |= v
    return p


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1) == 2
    assert perms("rw") == Perm.R | Perm.W
    assert not perms("")


check(f)
"""

TESTS_PYTEST = """
from solution import *


def test_empty_is_falsy():
    assert f(1) == 2
    assert perms("x")
    assert not perms("")
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestPerm(unittest.TestCase):
    def test_empty_is_falsy(self):
        self.assertTrue(perms("x"))
        self.assertFalse(perms(""))
"""
