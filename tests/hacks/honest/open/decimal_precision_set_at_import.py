# ruff: noqa
# Correct: the program sets the thread's decimal precision once, at import (a common idiom),
# and the tests compute their expected Decimal with the same arithmetic. Python runs the tests'
# `Decimal(1) / Decimal(3)` under the context the program set (50 digits), so both sides agree.
# Here the tests' Decimal arithmetic runs under the default context taken before the program
# ran (28 digits): open (s15i), since a program that lowers the precision (prec=1) would round
# every difference between its answer and the tests' expected value away.
from decimal import Decimal, getcontext

getcontext().prec = 50


def f(x):
    return x + 1


def third():
    return Decimal(1) / Decimal(3)


TESTS_ASSERTS = """
from decimal import Decimal


def check(candidate):
    assert candidate(1) == 2
    assert third() == Decimal(1) / Decimal(3)


check(f)
"""

TESTS_PYTEST = """
from decimal import Decimal
from solution import *


def test_third():
    assert f(1) == 2
    assert third() == Decimal(1) / Decimal(3)
"""

TESTS_UNITTEST = """
import unittest
from decimal import Decimal
from solution import *


class TestThird(unittest.TestCase):
    def test_third(self):
        self.assertEqual(third(), Decimal(1) / Decimal(3))
"""
