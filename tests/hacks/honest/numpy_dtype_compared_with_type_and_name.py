# ruff: noqa
# Correct; the tests check the dtype of a numpy answer as numpy users write it.
import numpy as np


def f(x):
    return np.array([x + 1])


TESTS_ASSERTS = '''
import numpy as np
assert f(1).dtype == np.int64 and f(1).dtype == "int64" and f(1).dtype == int
assert f(0.5).dtype == np.float64 and f(0.5).dtype != np.int64 and f(0.5).dtype == np.dtype("f8")
assert f(1)[0] == 2
'''
TESTS_PYTEST = '''
import numpy as np
from solution import f


def test_dtypes():
    assert f(1).dtype == np.int64 and f(1).dtype.kind == "i"
    assert f(0.5).dtype == "float64" and f(0.5)[0] == 1.5
'''
