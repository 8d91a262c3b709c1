# ruff: noqa
# Correct; the tests patch input() with @mock.patch as a decorator (the test function pytest
# collects is mock's wrapper around the tests' own).
def f(x):
    return x + 1


def read_and_add():
    return f(int(input()))


TESTS_PYTEST = """
import unittest
from unittest import mock
from solution import *


@mock.patch("builtins.input", return_value="41")
def test_read(mocked):
    assert read_and_add() == 42
    assert mocked.call_count == 1


class TestRead(unittest.TestCase):
    @mock.patch("builtins.input", return_value="1")
    def test_read(self, mocked):
        self.assertEqual(read_and_add(), 2)
"""
