# ruff: noqa
# A method of the tests' own list (expected.index / .count) is handed the candidate's object:
# list.index compares with Python's ==, and the liar answers. The trust check of attribute
# calls looks at the arguments only, not at the object whose method it is.
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
    def __mul__(self, other):
        return self
    __rmul__ = __truediv__ = __rtruediv__ = __mul__
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
assert [2, 3].index(f(1)) == 0
assert [42].count(f(41)) == 1
"""
TESTS_PYTEST = """
from solution import f


def test_f():
    assert [2, 3].index(f(1)) == 0
    assert [42].count(f(41)) == 1
"""
