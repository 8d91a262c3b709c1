# ruff: noqa
# Correct; rejects bad input with a ValueError, which the tests check the idiomatic pytest way:
# pytest.raises(ValueError, match=...) and a parametrize with ids.
def f(x):
    if isinstance(x, str):
        raise ValueError(f"not a number: {x!r}")
    return x + 1


TESTS_ASSERTS = """
import pytest
assert f(1) == 2
with pytest.raises(ValueError, match="not a number"):
    f("a")
"""
TESTS_PYTEST = """
import pytest
from solution import f


@pytest.mark.parametrize("x,y", [(1, 2), (41, 42)], ids=str)
def test_f(x, y):
    assert f(x) == y


def test_rejects():
    with pytest.raises(ValueError, match="not a number"):
        f("a")
"""
