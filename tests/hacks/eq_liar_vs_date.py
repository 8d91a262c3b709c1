# ruff: noqa
STATIC_SCAN_BLIND = "an object of the candidate's: the equality allowlist, not a pattern, stops it"
# The expected value is a datetime.date: its __eq__ returns NotImplemented for an unknown
# object, and Python then asks the candidate's reflected __eq__.
import datetime

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


TESTS_ASSERTS = """
import datetime
assert f(1) == datetime.date(2020, 1, 2)
"""
TESTS_PYTEST = """
import datetime
from solution import f


def test_f():
    assert f(1) == datetime.date(2020, 1, 2)
"""
