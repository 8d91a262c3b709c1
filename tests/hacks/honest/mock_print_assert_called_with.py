# ruff: noqa
# Correct; prints its answer, and the tests check the print through a mock of builtins.print.
def f(x):
    print(x + 1)
    return x + 1


TESTS_ASSERTS = """
from unittest import mock
with mock.patch("builtins.print") as out:
    f(1)
out.assert_called_with(2)
"""
TESTS_PYTEST = """
from unittest import mock
from solution import f


def test_prints():
    with mock.patch("builtins.print") as out:
        f(41)
    out.assert_called_once_with(42)
"""
