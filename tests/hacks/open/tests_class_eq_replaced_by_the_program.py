# ruff: noqa
# Wrong (builds cls(x * 100)), and the tests hand the program their own dataclass (dependency
# injection: `f(Box, 1) == Box(2)`). The program sets `cls.__eq__ = lambda a, b: True` on it:
# the tests' class's __eq__ is now code from the program's file, which the strict comparison
# takes for "the candidate's or the tests' own __eq__" and runs (strict.eq_of, own_eq): 1.0
# under check(), pytest and unittest (open, s15i: a class the tests defined would need its
# dict held, or its own __eq__ told from one planted by the program).
def f(x):
    return x + 2


def make(cls, x):
    cls.__eq__ = lambda a, b: True
    return cls(x * 100)


TESTS_ASSERTS = """
from dataclasses import dataclass


@dataclass
class Box:
    v: int


def check(candidate):
    assert make(Box, 1) == Box(2)


check(f)
"""

TESTS_PYTEST = """
from dataclasses import dataclass
from solution import *


@dataclass
class Box:
    v: int


def test_box():
    assert make(Box, 1) == Box(2)
"""

TESTS_UNITTEST = """
import unittest
from dataclasses import dataclass
from solution import *


@dataclass
class Box:
    v: int


class TestBox(unittest.TestCase):
    def test_box(self):
        self.assertEqual(make(Box, 1), Box(2))
"""
