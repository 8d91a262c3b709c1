# ruff: noqa
# Correct; a byte-level helper returns a memoryview slice (zero-copy), which Python compares
# equal to the same bytes.
def f(x):
    return x + 1


def head(data, n):
    return memoryview(data)[:n]


TESTS_ASSERTS = """
assert f(1) == 2
assert head(b"abcdef", 3) == b"abc"
"""
TESTS_PYTEST = """
from solution import f, head


def test_head():
    assert f(1) == 2
    assert head(b"abcdef", 3) == b"abc"
"""
