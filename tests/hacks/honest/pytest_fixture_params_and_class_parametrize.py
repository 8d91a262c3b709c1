# ruff: noqa
# Correct; the tests parametrize a fixture, a whole class and a test inside it: every
# collected case runs and reports.
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import f


@pytest.fixture(params=[1, 41, -3])
def n(request):
    return request.param


def test_fixture_params(n):
    assert f(n) == n + 1


@pytest.mark.parametrize("x", [0.25, 200])
class TestClass:
    @pytest.mark.parametrize("k", [0, 1])
    def test_shift(self, x, k):
        assert f(x + k) == x + k + 1

    def test_plain(self, x):
        assert f(x) - 1 == x
"""
