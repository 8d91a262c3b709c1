# ruff: noqa
# Correct; mixes Decimal, Fraction, float and int as Python compares them.
from decimal import Decimal
from fractions import Fraction


def f(x):
    return x + 1


def half():
    return Decimal("0.5")


def third():
    return Fraction(1, 3)


TESTS_ASSERTS = """
from decimal import Decimal
from fractions import Fraction
assert f(1) == 2
assert half() == Fraction(1, 2)
assert half() == 0.5
assert third() * 3 == 1
assert third() < half()
assert sorted([half(), third(), 1]) == [third(), half(), 1]
assert abs(float(third()) - 1 / 3) < 1e-12
"""
