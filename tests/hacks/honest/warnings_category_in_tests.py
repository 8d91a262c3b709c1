# ruff: noqa
# Correct; warns on a deprecated argument, which the tests check with pytest.warns(category,
# match=...) / warnings.catch_warnings and a category filter.
import warnings


def f(x, old=False):
    if old:
        warnings.warn("old is deprecated", DeprecationWarning)
    return x + 1


TESTS_ASSERTS = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", DeprecationWarning)
    assert f(1, old=True) == 2
assert len(caught) == 1
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_warns():
    with pytest.warns(DeprecationWarning, match="deprecated"):
        assert f(1, old=True) == 2
"""
