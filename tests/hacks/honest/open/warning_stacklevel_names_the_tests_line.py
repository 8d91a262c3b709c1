# ruff: noqa
# Correct: warns its caller with stacklevel=2, as library code does, and the tests check that
# the warning names their own file. Under rlvr-grade the program-call fence's frame sits between
# the tests and the program, so the warning names rlvr_harness/strict.py (open, fidi -> s15h).
import warnings


def f(x):
    if x < 0:
        warnings.warn("negative input", RuntimeWarning, stacklevel=2)
    return x + 1


TESTS_ASSERTS = """
import warnings


def check(candidate):
    assert candidate(1) == 2
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert candidate(-1) == 0
    assert seen[0].filename == check.__code__.co_filename


check(f)
"""

TESTS_PYTEST = """
import pytest
from solution import *


def test_the_warning_names_the_caller():
    with pytest.warns(RuntimeWarning) as record:
        assert f(-1) == 0
    assert record[0].filename == __file__
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestF(unittest.TestCase):
    def test_the_warning_names_the_caller(self):
        with self.assertWarns(RuntimeWarning) as cm:
            self.assertEqual(f(-1), 0)
        self.assertEqual(cm.filename, __file__)
"""
