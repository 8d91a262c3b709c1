# ruff: noqa
# The tests check with a match statement: a value pattern (case 2:) compares with Python's ==
# (no Compare node for the rewrite to see), and the liar answers.
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
def check(candidate):
    match candidate(1):
        case 2:
            pass
        case _:
            assert False, "wrong"
    match candidate(41):
        case 42:
            pass
        case _:
            assert False, "wrong"


check(f)
"""
TESTS_PYTEST = """
from solution import f


def test_f():
    match f(1):
        case 2:
            pass
        case _:
            assert False, "wrong"
"""
