# ruff: noqa
# Correct; the test file documents a known limitation with an xfail-marked test (strings are
# not supported): pytest's own verdict for the file is "passed, 1 xfailed".
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import f


def test_int():
    assert f(1) == 2


@pytest.mark.xfail(reason="strings are not supported", raises=TypeError, strict=True)
def test_str():
    assert f("a") == "a1"
"""
