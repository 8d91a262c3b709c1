# ruff: noqa
# Correct to the tests' stated tolerance (1e-3 relative); the expected value is a numpy array
# inside pytest.approx, and f returns a list.
def f(x):
    return [x + 1 + 1e-5, 2 * (x + 1)]


TESTS_ASSERTS = """
import numpy as np
import pytest
assert f(1) == pytest.approx(np.array([2.0, 4.0]), rel=1e-3)
"""
TESTS_PYTEST = """
import numpy as np
import pytest
from solution import f


def test_f():
    assert f(1) == pytest.approx(np.array([2.0, 4.0]), rel=1e-3)
"""
