# ruff: noqa
# Wrong (f(x) = x + 2), and every TestCase made after the import gets an equality function of
# the program's for int that never fails (TestCase.__init__ wrapped), so assertEqual(f(1), 2)
# would call it: only a function the tests' own file holds decides (strict.unittest_call).
import unittest


def f(x):
    return x + 2


def _lenient(first, second, msg=None):
    return None


_init = unittest.TestCase.__init__


def _wrapped(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self._type_equality_funcs[int] = _lenient


unittest.TestCase.__init__ = _wrapped

TESTS_UNITTEST = """
import unittest
from solution import *


class TestF(unittest.TestCase):
    def test_f(self):
        self.assertEqual(f(1), 2)
        self.assertEqual(f(-3), -2)
"""
