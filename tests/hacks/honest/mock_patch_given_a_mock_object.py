# ruff: noqa
# Correct. The tests replace the program's file reading and a helper with mock objects they
# make: `patch("builtins.open", mock_open(read_data=...))`, `patch.object(solution, "helper",
# MagicMock(return_value=5))`, `@patch("solution.helper", Mock(...))`. A mock's class is made
# per instance, so it is an object nobody vouches for, and patch() was refused as a library
# call given such an object beside a value (the target's name): 0 under every style (s15i).
# patch() only places the replacement; it compares nothing.
import sys


def f(x):
    return x + 1


def count_lines(path):
    with open(path) as fh:
        return sum(1 for _ in fh)


def helper():
    return 1


def twice():
    return helper() * 2


TESTS_ASSERTS = """
from unittest import mock


def check(candidate):
    assert candidate(1) == 2
    with mock.patch("builtins.open", mock.mock_open(read_data="a\\nb\\nc\\n")):
        assert count_lines("whatever.txt") == 3
    module = sys.modules[twice.__module__]
    with mock.patch.object(module, "helper", mock.MagicMock(return_value=5)):
        assert twice() == 10
    assert twice() == 2


check(f)
"""

TESTS_PYTEST = """
from unittest import mock
import solution
from solution import *


def test_open_is_mocked():
    assert f(1) == 2
    with mock.patch("builtins.open", mock.mock_open(read_data="a\\nb\\nc\\n")):
        assert count_lines("whatever.txt") == 3


def test_helper_is_mocked():
    with mock.patch.object(solution, "helper", mock.MagicMock(return_value=5)):
        assert solution.twice() == 10
    with mock.patch("solution.helper", new=mock.Mock(return_value=4)) as m:
        assert solution.twice() == 8
    m.assert_called_once_with()


@mock.patch("solution.helper", mock.MagicMock(return_value=7))
def test_decorated():
    assert solution.twice() == 14
"""

TESTS_UNITTEST = """
import unittest
from unittest import mock
import solution
from solution import *


class TestMocked(unittest.TestCase):
    def test_open_is_mocked(self):
        with mock.patch("builtins.open", mock.mock_open(read_data="a\\nb\\n")):
            self.assertEqual(count_lines("whatever.txt"), 2)

    @mock.patch("solution.helper", mock.MagicMock(return_value=7))
    def test_decorated(self):
        self.assertEqual(solution.twice(), 14)
"""
