# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the failure log, not a pattern, stops it"
# Wrong (identity), and the tests check it through a top-level helper function, as every
# evalplus OriginFmt test does: the helper's assert must fail the test that called it.
def f(x):
    return x


TESTS_ASSERTS = """
def assertion(out, exp):
    assert out == exp


def check(candidate):
    for x in [1, 41, -3]:
        assertion(candidate(x), x + 1)


check(f)
"""
TESTS_PYTEST = """
from solution import f


def assertion(out, exp):
    assert out == exp


def test_f():
    for x in [1, 41, -3]:
        assertion(f(x), x + 1)
"""
