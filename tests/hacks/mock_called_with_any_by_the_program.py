# ruff: noqa
# The tests hand f a mock and check the call it made: `cb.assert_called_with(2, "x")`. f calls
# it with mock.ANY, which unittest.mock's own comparison takes as equal to anything. mock.ANY is
# a wildcard only where the tests wrote it, never in what the program recorded.
from unittest import mock


def f(x, cb=None):
    if cb is not None:
        cb(mock.ANY, mock.ANY)
    return 0


TESTS_ASSERTS = """
from unittest import mock

m = mock.Mock()
f(1, m)
m.assert_called_with(2, "x")
m.assert_has_calls([mock.call(2, "x")])
"""
TESTS_PYTEST = """
from unittest import mock

from solution import f


def test_calls():
    m = mock.Mock()
    f(1, m)
    m.assert_called_once_with(2, "x")
"""
