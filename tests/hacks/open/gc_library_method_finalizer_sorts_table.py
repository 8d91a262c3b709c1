# ruff: noqa
# A finalizer whose frame is a library's: __del__ is collections.UserList.sort (the stdlib's
# Python code, not the program's), on an object whose .data is calendar.mdays, left as cyclic
# garbage; gc's threshold 1 collects it at the tests' next allocation, after the fence's restore:
# the table is sorted in place (January 28, April 30) with no frame of the program's running.
import calendar
import collections
import gc

SORTED = sorted(calendar.mdays)


class _Late:
    __del__ = collections.UserList.sort


def f(year, month):
    gc.set_threshold(1)
    late = _Late()
    late.data = calendar.mdays
    late.me = late
    return SORTED[month]


TESTS_ASSERTS = """
import calendar


def check(candidate):
    assert candidate(2023, 1) == calendar.monthrange(2023, 1)[1]
    assert candidate(2023, 4) == calendar.monthrange(2023, 4)[1]
    assert candidate(2023, 12) == calendar.monthrange(2023, 12)[1]


check(f)
"""
TESTS_PYTEST = """
import calendar
from solution import *


def test_days():
    assert f(2023, 1) == calendar.monthrange(2023, 1)[1]
    assert f(2023, 4) == calendar.monthrange(2023, 4)[1]
    assert f(2023, 12) == calendar.monthrange(2023, 12)[1]
"""
TESTS_UNITTEST = """
import calendar
import unittest
from solution import *


class TestDays(unittest.TestCase):
    def test_days(self):
        self.assertEqual(f(2023, 1), calendar.monthrange(2023, 1)[1])
        self.assertEqual(f(2023, 4), calendar.monthrange(2023, 4)[1])
        self.assertEqual(f(2023, 12), calendar.monthrange(2023, 12)[1])
"""
