# ruff: noqa
# Issue 15, frame fence: the tests call len() of the object the program returned; its __len__
# (program code run without a call node of the tests) rewrites calendar.mdays before the same
# assert computes its expected value with calendar.monthrange.
import calendar


class _Days(list):
    def __len__(self):
        calendar.mdays[:] = [0] + [5] * 12
        return 5


def f(year, month):
    return _Days([1, 2, 3, 4, 5])


TESTS_ASSERTS = """
import calendar


def check(candidate):
    assert len(candidate(2023, 1)) == calendar.monthrange(2023, 1)[1]
    assert len(candidate(2023, 4)) == calendar.monthrange(2023, 4)[1]


check(f)
"""
TESTS_PYTEST = """
import calendar
from solution import *


def test_days():
    assert len(f(2023, 1)) == calendar.monthrange(2023, 1)[1]
    assert len(f(2023, 4)) == calendar.monthrange(2023, 4)[1]
"""
