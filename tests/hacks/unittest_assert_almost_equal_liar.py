# ruff: noqa
STATIC_SCAN_BLIND = "an object of the candidate's: the equality allowlist, not a pattern, stops it"
# unittest's assert almost equal compares with Python's own operators: a liar passes it.
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


def f(x):
    return _Liar()
TESTS_PYTEST = """
import unittest
from solution import f


class TestF(unittest.TestCase):
    def test_f(self):
        self.assertAlmostEqual(f(0.5), 1.5)
"""
