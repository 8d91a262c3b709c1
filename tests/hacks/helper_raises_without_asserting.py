# ruff: noqa
# The tests compare in a helper that raises AssertionError itself (no assert statement), or in a
# lambda made by a helper: both decide a verdict, so both compare by the allowlist.
class _Liar:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None
def f(x):
    return _Liar()
TESTS_ASSERTS = """
def expect(got, want):
    if got != want:
        raise AssertionError(f"{got!r} != {want!r}")


def make_same():
    return lambda a, b: a == b


def check(candidate):
    expect(candidate(1), 2)
    assert make_same()(candidate(41), 42)


check(f)
"""
TESTS_PYTEST = """
from solution import f


def expect(got, want):
    if got != want:
        raise AssertionError(f"{got!r} != {want!r}")


def test_f():
    expect(f(1), 2)
"""
