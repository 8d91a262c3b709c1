# ruff: noqa
# Correct; returns a numpy array, and the tests compare it with pytest.approx of a list (pytest
# compares any sized sequence element by element).
import numpy as np


def f(x):
    return np.array([x + 1.0, x + 1.0])


TESTS_ASSERTS = """
import pytest
assert f(1) == pytest.approx([2.0, 2.0])
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    assert f(1) == pytest.approx([2.0, 2.0])
"""
