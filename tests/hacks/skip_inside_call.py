# ruff: noqa
def f(x):
    import pytest

    pytest.skip("no")
