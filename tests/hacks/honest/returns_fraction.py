# ruff: noqa
# Correct, returning Fractions: Fraction(2) == 2 is Python's answer.
from fractions import Fraction


def f(x):
    return Fraction(x) + 1
