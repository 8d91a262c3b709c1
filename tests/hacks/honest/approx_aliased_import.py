# ruff: noqa
# Correct float answers; the tests spell pytest.approx under another name (an import alias, a
# partial with the tolerance bound), as test files do.
def f(x):
    return x + 1 + 1e-9


TESTS_ASSERTS = """
import functools
from pytest import approx as ap
close = functools.partial(ap, rel=1e-6)
assert f(1) == ap(2)
assert f(0.5) == close(1.5)
"""
TESTS_PYTEST = """
import functools
from pytest import approx as ap
from solution import f

close = functools.partial(ap, rel=1e-6)


def test_f():
    assert f(1) == ap(2)
    assert f(0.5) == close(1.5)
"""
