# ruff: noqa
# Correct. Raises the decimal precision at import (its own context), answers big ints,
# Fractions and Decimals; the tests compare with the same types.
import decimal
import sys
from fractions import Fraction

decimal.getcontext().prec = 60
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def f(x):
    if isinstance(x, Fraction):
        return x + 1
    if isinstance(x, decimal.Decimal):
        return x + decimal.Decimal(1)
    return x + 1


TESTS_ASSERTS = """
from decimal import Decimal
from fractions import Fraction
assert f(1) == 2
assert f(Fraction(1, 3)) == Fraction(4, 3)
assert f(Decimal("0.1")) == Decimal("1.1")
assert f(10 ** 5000) == 10 ** 5000 + 1
assert str(f(10 ** 5000))[-1] == "1"
assert f(Decimal(1) / Decimal(3)) - 1 == Decimal(1) / Decimal(3)
"""
TESTS_PYTEST = """
from decimal import Decimal
from fractions import Fraction
from solution import f


def test_f():
    assert f(1) == 2
    assert f(Fraction(1, 3)) == Fraction(4, 3)
    assert f(Decimal("0.1")) == Decimal("1.1")
    assert f(10 ** 5000) == 10 ** 5000 + 1
"""
