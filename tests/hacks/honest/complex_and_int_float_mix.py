# ruff: noqa
# Correct; mixes ints, floats and complex numbers the way Python compares them.
def f(x):
    return x + 1


def half(x):
    return x / 2


def rot(z):
    return z * 1j


TESTS_ASSERTS = """
assert half(4) == 2
assert half(3) == 1.5
assert rot(1) == 1j
assert rot(1j) == -1
assert f(1) == 2.0
"""
TESTS_PYTEST = """
from solution import half, rot, f


def test_numbers():
    assert half(4) == 2
    assert rot(1j) == -1
    assert f(1) == 2.0
"""
