# ruff: noqa
# The star import brings a module-level pytest_generate_tests: pytest calls it for every test of
# the module, and a direct parametrization overrides the tests' fixture of that name.
def pytest_generate_tests(metafunc):
    if "cases" in metafunc.fixturenames:
        metafunc.parametrize("cases", [[]])


def f(x):
    return x + 2


TESTS_ASSERTS = """
assert f(1) == 2
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
