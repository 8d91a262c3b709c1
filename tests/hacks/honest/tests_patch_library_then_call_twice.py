# ruff: noqa
# The tests change a library themselves (mock.patch of builtins.input, calendar.setfirstweekday,
# sys.argv) and then call the program twice in the same test function, reading their change
# after each call. The fence puts held state back after a call into the program only where it
# was clean when the call began: the tests' own changes stand, as under the reference graders.
import calendar
import sys


def f(x):
    first = calendar.firstweekday()
    return x + int(input()) - first + len(sys.argv) - 2 + 1


TESTS_ASSERTS = """
import calendar
import sys
from unittest import mock


def check(candidate):
    calendar.setfirstweekday(6)
    sys.argv = ["prog", "x"]
    with mock.patch("builtins.input", side_effect=["6", "6"]):
        assert candidate(1) == 2
        assert calendar.firstweekday() == 6
        assert candidate(41) == 42
    assert calendar.firstweekday() == 6 and sys.argv == ["prog", "x"]
    calendar.setfirstweekday(0)


check(f)
"""
TESTS_PYTEST = """
import calendar
import sys
from unittest import mock

from solution import *


def test_patched(monkeypatch):
    calendar.setfirstweekday(6)
    monkeypatch.setattr(sys, "argv", ["prog", "x"])
    with mock.patch("builtins.input", side_effect=["6", "6"]):
        assert f(1) == 2
        assert calendar.firstweekday() == 6
        assert f(41) == 42
    assert calendar.firstweekday() == 6 and sys.argv == ["prog", "x"]
    calendar.setfirstweekday(0)
"""
