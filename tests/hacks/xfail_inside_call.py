# ruff: noqa
def f(x):
    import pytest

    pytest.xfail("no")
