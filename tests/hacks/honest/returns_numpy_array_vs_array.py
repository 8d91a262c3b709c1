# ruff: noqa
# Correct; tests compare numpy arrays the way numpy users do.
import numpy as np


def f(x):
    return np.asarray(x) + 1


TESTS_ASSERTS = """
import numpy as np
assert (f(np.array([1, 2])) == np.array([2, 3])).all()
assert np.array_equal(f([1, 2]), [2, 3])
assert np.allclose(f([0.5]), [1.5])
assert f(1) == 2
"""
TESTS_PYTEST = """
import numpy as np
from solution import f


def test_f():
    assert (f(np.array([1, 2])) == np.array([2, 3])).all()
    assert np.allclose(f([0.5]), [1.5])
"""
