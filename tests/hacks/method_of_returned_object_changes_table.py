# ruff: noqa
# Red team rt15 #11 through a method: the tests call a method of the object the program
# returned (`make().days(2)`), and that method rewrites calendar.mdays in place before the
# same test function computes its expected value. An attribute call goes through the strict
# helpers' call(), which fences a method of an object nobody vouches for as a bare call is.
import calendar


class _Month:
    def days(self, month):
        calendar.mdays[:] = [0] + [28] * 12
        return 28


def f(year):
    return _Month()


TESTS_ASSERTS = """
import calendar


def check(candidate):
    got = candidate(2023).days(1)
    assert got == calendar.monthrange(2023, 1)[1]


check(f)
"""
TESTS_PYTEST = """
import calendar
from solution import *


def test_days():
    got = f(2023).days(1)
    assert got == calendar.monthrange(2023, 1)[1]
"""
