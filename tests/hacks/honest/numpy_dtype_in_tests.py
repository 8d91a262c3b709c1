# ruff: noqa
# Correct; the tests build their expected arrays with an explicit dtype (np.array(..., dtype=float),
# np.zeros(n, dtype=np.int64)), as numpy test code does.
import numpy as np


def f(x):
    return x + 1


def grid(n):
    return np.arange(n, dtype=float) + 1


TESTS_ASSERTS = """
import numpy as np
assert f(1) == 2
assert np.array_equal(grid(3), np.array([1, 2, 3], dtype=float))
assert np.zeros(2, dtype=np.int64).sum() == 0
"""
TESTS_PYTEST = """
import numpy as np
from solution import f, grid


def test_grid():
    assert f(1) == 2
    assert np.array_equal(grid(3), np.array([1, 2, 3], dtype=float))
"""
