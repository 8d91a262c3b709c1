# ruff: noqa
# Correct; decimal arithmetic under a local context with its own precision and rounding, compared
# with Decimal expected values and through quantize.
import decimal
from decimal import Decimal


def f(x):
    return x + 1


def third(x):
    with decimal.localcontext() as ctx:
        ctx.prec = 6
        ctx.rounding = decimal.ROUND_HALF_UP
        return Decimal(f(x)) / 3


TESTS_ASSERTS = """
from decimal import Decimal
assert f(1) == 2
assert third(1) == Decimal("0.666667")
assert third(2).quantize(Decimal("0.01")) == Decimal("1.00")
"""
TESTS_PYTEST = """
from decimal import Decimal
from solution import third


def test_third():
    assert third(1) == Decimal("0.666667")
"""
