# ruff: noqa
# The tests take their cases from a fixture; the star import brings a fixture registered under
# the same name (pytest keeps the last definition it parses: names sort alphabetically).
import pytest


@pytest.fixture(name="cases")
def zz_cases():
    return []


def f(x):
    return x + 2


TESTS_ASSERTS = """
assert f(1) == 2
assert f(41) == 42
"""
TESTS_PYTEST = """
import pytest
from solution import *


@pytest.fixture
def cases():
    return [(1, 2), (41, 42), (-3, -2)]


def test_f(cases):
    for x, want in cases:
        assert f(x) == want
"""
