# ruff: noqa
# Correct; the tests pin a module constant with mock.patch.object(module, name, value).
import math


def f(x):
    return x + 1


def circle(r):
    return math.pi * r * r


TESTS_ASSERTS = """
from unittest import mock
import math
assert f(1) == 2
with mock.patch.object(math, "pi", 3):
    assert circle(2) == 12
"""
TESTS_PYTEST = """
import math
from unittest import mock
from solution import circle, f


def test_pi():
    assert f(1) == 2
    with mock.patch.object(math, "pi", 3):
        assert circle(2) == 12
"""
