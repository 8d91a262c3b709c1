# ruff: noqa
# The test file marks test_str xfail(raises=TypeError, strict=True): strings must raise
# TypeError. This f does not raise it: it calls pytest.xfail() itself, which pytest reports as
# "xfailed" whatever `raises` says. A mark from the tests' text counts only for a failure the
# test itself raised, never for pytest's own skip/xfail/fail outcomes raised in a call.
def f(x):
    if isinstance(x, str):
        import pytest

        pytest.xfail("strings")
    return x + 1


TESTS_ASSERTS = """
assert f(1) == 2
try:
    f("a")
    raised = None
except TypeError:
    raised = TypeError
assert raised is TypeError
"""

TESTS_PYTEST = """
import pytest
from solution import f


def test_int():
    assert f(1) == 2


@pytest.mark.xfail(reason="strings are not supported", raises=TypeError, strict=True)
def test_str():
    assert f("a") == "a1"
"""
