# ruff: noqa
# Correct; the tests' own helper class and closure-based checker compare results (evalplus-style
# helpers that return booleans instead of asserting).
def f(x):
    return x + 1


TESTS_ASSERTS = """
class Checker:
    def __init__(self, tol):
        self.tol = tol

    def same(self, a, b):
        return abs(a - b) <= self.tol


def make_check(want):
    def check_one(got):
        return got == want
    return check_one


c = Checker(1e-9)
assert c.same(f(0.5), 1.5)
assert make_check(42)(f(41))
assert all(c.same(f(i), i + 1) for i in range(5))
assert not c.same(f(1), 3)
"""
TESTS_PYTEST = """
from solution import f


class Checker:
    def __init__(self, tol):
        self.tol = tol

    def same(self, a, b):
        return abs(a - b) <= self.tol


def test_helpers():
    c = Checker(1e-9)
    assert c.same(f(0.5), 1.5)
    assert not c.same(f(1), 3)
"""
