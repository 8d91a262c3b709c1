# ruff: noqa
# Correct. The program registers how its own class pickles (copyreg, at import) and the tests
# round-trip results through pickle and copy.deepcopy.
import copy
import copyreg
import pickle


class Box:
    def __init__(self, v):
        self.v = v
        self.callback = lambda: v  # a lambda does not pickle: the reducer leaves it out

    def __eq__(self, other):
        return type(other) is Box and other.v == self.v

    __hash__ = None


copyreg.pickle(Box, lambda b: (Box, (b.v,)))


def f(x):
    b = pickle.loads(pickle.dumps(Box(x)))
    assert copy.deepcopy(b) == b
    return b.v + 1


def box(x):
    return Box(x)


TESTS_ASSERTS = """
import copy
import pickle
assert f(1) == 2
assert f(41) == 42
assert pickle.loads(pickle.dumps(box(3))) == box(3)
assert copy.deepcopy(box(4)) == box(4)
"""
TESTS_PYTEST = """
import copy
import pickle
from solution import f, box


def test_f():
    assert f(1) == 2
    assert f(41) == 42
    assert pickle.loads(pickle.dumps(box(3))) == box(3)
    assert copy.deepcopy(box(4)) == box(4)
"""
