# ruff: noqa
# Correct: reports which function called it through inspect.stack() (a debugging helper, a
# plugin registry keyed by caller). The guard refuses sys._getframe to program code, and
# inspect.stack() is built on it: a frame's f_back leads to the tests' frames and the harness's
# (open, s15i; docs/fidelity.md "The in-process guard").
import inspect


def f(x):
    return x + 1


def caller():
    return inspect.stack()[1].function


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1) == 2
    assert caller() == "check"


check(f)
"""

TESTS_PYTEST = """
from solution import *


def test_caller():
    assert f(1) == 2
    assert caller() == "test_caller"
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestCaller(unittest.TestCase):
    def test_caller(self):
        self.assertEqual(caller(), "test_caller")
"""
