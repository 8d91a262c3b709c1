# ruff: noqa
# Correct. The tests use the abstract-base idiom: a TestCase base whose setUp calls
# self.skipTest() when it runs for itself, and a subclass that supplies the function.
# `python -m unittest` says OK (skipped=1). Here a skip the tests' text does not mark is a
# failure (docs/fidelity.md "xfail and skip marks"), and telling the tests' own skipTest from
# a SkipTest the program raises needs the raise site (open, fidh -> s15i).
def f(x):
    return x + 1


TESTS_UNITTEST = """
import unittest
from solution import *


class Base(unittest.TestCase):
    func = None

    def setUp(self):
        if type(self).func is None:
            self.skipTest("abstract base")

    def test_one(self):
        self.assertEqual(type(self).func(1), 2)


class TestF(Base):
    func = staticmethod(f)
"""
