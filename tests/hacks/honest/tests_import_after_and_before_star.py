# ruff: noqa
# Correct; the program defines its own `permutations` and `isclose`, which a star import after
# the tests' `from itertools import permutations` gives the tests (Python's rule), while the
# tests' `from math import isclose` after the star import is the library's.
def f(x):
    return x + 1


def permutations(xs):
    return [tuple(xs)]


def isclose(a, b):
    return False


TESTS_PYTEST = """
from itertools import permutations
from solution import *
from math import isclose


def test_names():
    assert permutations([f(1), 3]) == [(2, 3)]
    assert isclose(f(0.5), 1.5)
"""
