# ruff: noqa
# Correct; the tests check a callback's calls with mock.ANY for the argument they do not care
# about (`m.assert_called_with(mock.ANY, "x")`, `mock.call(mock.ANY, "x")` in assert_has_calls):
# a wildcard the tests wrote.
def f(x, cb=None):
    if cb is not None:
        cb(object(), "x")
        cb(x + 1, "y")
    return x + 1


TESTS_ASSERTS = """
from unittest import mock

m = mock.Mock()
assert f(1, m) == 2
m.assert_called_with(mock.ANY, "y")
m.assert_any_call(mock.ANY, "x")
m.assert_has_calls([mock.call(mock.ANY, "x"), mock.call(2, mock.ANY)])
m.assert_has_calls([mock.call(2, "y"), mock.call(mock.ANY, mock.ANY)], any_order=True)
"""
TESTS_PYTEST = """
from unittest import mock

from solution import f


def test_calls():
    m = mock.Mock()
    assert f(1, m) == 2
    m.assert_called_with(mock.ANY, "y")
    m.assert_has_calls([mock.call(mock.ANY, "x"), mock.call(2, mock.ANY)])
"""
