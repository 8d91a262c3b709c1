# ruff: noqa
# Correct; parametrize with ids, indirect fixtures and stacked decorators.
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import f


@pytest.fixture
def doubled(request):
    return request.param * 2


@pytest.mark.parametrize("doubled", [1, 2], indirect=True)
@pytest.mark.parametrize("extra", [0, 10], ids=["zero", "ten"])
def test_indirect(doubled, extra):
    assert f(doubled + extra) == doubled + extra + 1


@pytest.mark.parametrize("x, want", [pytest.param(1, 2, id="one"), (41, 42)])
def test_ids(x, want):
    assert f(x) == want
"""
