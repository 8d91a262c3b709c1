# ruff: noqa
# Correct; the test file skips what it cannot check here (a skip mark, a false skipif, a
# unittest skip) and marks a flaky test xfail that happens to pass (non-strict XPASS): pytest's
# verdict is success, and a skipped test is neither a pass nor a failure.
def f(x):
    return x + 1


TESTS_PYTEST = """
import sys
import unittest

import pytest
from solution import f


def test_int():
    assert f(1) == 2


@pytest.mark.skip(reason="needs the network")
def test_remote():
    assert f(1) == 99


@pytest.mark.skipif(sys.version_info < (3, 0), reason="python 2")
def test_float():
    assert f(0.5) == 1.5


@pytest.mark.xfail(reason="flaky on some machines")
def test_flaky():
    assert f(41) == 42


@pytest.mark.parametrize("x,want", [(1, 2), pytest.param(2, 99, marks=pytest.mark.skip(reason="wrong data"))])
def test_cases(x, want):
    assert f(x) == want


class TestUnit(unittest.TestCase):
    @unittest.skip("not here")
    def test_skipped(self):
        self.assertEqual(f(1), 99)

    def test_neg(self):
        self.assertEqual(f(-3), -2)
"""
