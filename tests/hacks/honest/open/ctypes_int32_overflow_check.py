# ruff: noqa
# Correct: LeetCode's "reverse integer" idiom, 32-bit overflow checked with
# ctypes.c_int32(r).value == r. ctypes is refused to program code (its raw-memory paths reach
# the result channel's secret and the tests' values: docs/fidelity.md, issue 15's channel), so
# `import ctypes` is an ImportError here (open, s15i: refusing only the raw-memory parts of
# ctypes would need an allowlist of its C types' value conversions).
import ctypes


def f(x):
    return x + 1


def reverse32(x):
    sign = -1 if x < 0 else 1
    r = sign * int(str(abs(x))[::-1])
    return r if ctypes.c_int32(r).value == r else 0


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1) == 2
    assert reverse32(123) == 321
    assert reverse32(-120) == -21
    assert reverse32(1534236469) == 0


check(f)
"""

TESTS_PYTEST = """
from solution import *


def test_reverse():
    assert reverse32(123) == 321
    assert reverse32(1534236469) == 0
"""
