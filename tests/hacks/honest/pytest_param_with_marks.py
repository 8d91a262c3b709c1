# ruff: noqa
# Correct; the tests' parametrize table uses pytest.param with marks and ids.
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import f


@pytest.mark.parametrize("x,y", [
    pytest.param(1, 2, id="small"),
    pytest.param(10 ** 6, 10 ** 6 + 1, marks=pytest.mark.slow, id="big"),
])
def test_f(x, y):
    assert f(x) == y
"""
