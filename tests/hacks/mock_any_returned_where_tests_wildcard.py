# ruff: noqa
# The tests write mock.ANY for a part they do not care about; the program returns mock.ANY for
# the part they do. A wildcard counts only at the positions the tests' text puts it.
from unittest import mock


def f(x):
    return [mock.ANY, mock.ANY]


TESTS_ASSERTS = """
from unittest import mock

assert f(1) == [2, mock.ANY]
assert [f(1)[0], mock.ANY] == [2, 3]
"""
TESTS_PYTEST = """
from unittest import mock

from solution import f

def test_list():
    assert f(1) == [2, mock.ANY]
"""
