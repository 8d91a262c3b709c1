# ruff: noqa
# Correct; the tests import pytest's and mock's helpers by name (raises, fixture, mark, approx,
# patch, MagicMock) and nest approx in containers.
def f(x):
    return x + 1


def read_and_add():
    return f(int(input()))


def ratios():
    return {"a": 1 / 3, "b": [0.1 + 0.2, 2.0]}


def check_positive(x):
    if x < 0:
        raise ValueError(f"negative: {x}")
    return f(x)


TESTS_PYTEST = """
from pytest import raises, fixture, mark, approx
from unittest.mock import patch, MagicMock
from solution import *


@fixture(scope="module")
def base():
    return 41


@mark.parametrize("x, want", [(1, 2), (41, 42)])
def test_param(x, want, base):
    assert f(x) == want and f(base) == 42


def test_raises():
    with raises(ValueError, match="negative"):
        check_positive(-1)


def test_approx_nested():
    assert ratios() == {"a": approx(0.3333333), "b": [approx(0.3), 2.0]}
    assert ratios()["b"] == approx([0.3, 2.0])


@patch("builtins.input", return_value="1")
def test_patched(mocked):
    assert read_and_add() == 2
    m = MagicMock(return_value=3)
    assert m() == 3 and m.call_count == 1
"""
