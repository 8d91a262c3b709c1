# ruff: noqa
STATIC_SCAN_BLIND = "an object of the candidate's: the equality allowlist, not a pattern, stops it"
# An object whose __class__ property claims int: isinstance() believes it, and unittest's
# assertIsInstance + assertEqual accept it.
class _Liar:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
    def __lt__(self, other):
        return True
    __le__ = __gt__ = __ge__ = __lt__
    def __sub__(self, other):
        return 0.0
    __rsub__ = __add__ = __radd__ = __sub__
    def __abs__(self):
        return 0.0
    def __float__(self):
        return 0.0
    def __bool__(self):
        return True
    def __len__(self):
        return 0
    def __contains__(self, item):
        return True


class _Fake(_Liar):
    @property
    def __class__(self):
        return int


def f(x):
    return _Fake()


TESTS_ASSERTS = """
assert isinstance(f(1), int) and f(1) == 2
"""
TESTS_PYTEST = """
import unittest
from solution import f


class TestF(unittest.TestCase):
    def test_f(self):
        self.assertIsInstance(f(1), int)
        self.assertEqual(f(1), 2)
"""
