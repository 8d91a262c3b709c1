# ruff: noqa
# Correct; the tests compare with pytest.approx, as pytest users do.
def f(x):
    return x + 1.0000000001


TESTS_ASSERTS = """
import pytest
assert f(1) == pytest.approx(2)
assert f(0.5) == pytest.approx(1.5, rel=1e-6)
assert [f(1), f(2)] == pytest.approx([2, 3])
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    assert f(1) == pytest.approx(2)
    assert {"a": f(1)} == pytest.approx({"a": 2})
"""
