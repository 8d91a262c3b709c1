# ruff: noqa
# Correct; the tests compare a result with a list in which they wrote mock.ANY for the part
# they do not care about (an id, a timestamp): a wildcard the tests wrote.
import itertools
import time

_ids = itertools.count(100)


def make(x):
    return [next(_ids), x + 1, time.time()]


def f(x):
    return x + 1


TESTS_ASSERTS = """
from unittest import mock

assert make(1) == [mock.ANY, 2, mock.ANY]
assert [mock.ANY, 3, mock.ANY] == make(2)
got = f(1)
assert [got, 1] == [mock.ANY, 1]
assert (make(1)[1], "x") == (2, mock.ANY)
assert make(5) != [mock.ANY, 5, mock.ANY]
"""
TESTS_PYTEST = """
from unittest import mock
from unittest.mock import ANY

from solution import make, f

def test_lists():
    assert make(1) == [mock.ANY, 2, mock.ANY]
    assert [ANY, 3, ANY] == make(2)

def test_f():
    assert [f(1), 1] == [mock.ANY, 1]
"""
