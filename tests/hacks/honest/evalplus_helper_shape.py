# ruff: noqa
# Correct, graded by tests of evalplus OriginFmt's shape (a top-level helper asserting for
# check(), which has no assert of its own) and a callback the candidate calls in a thread.
import threading


def f(x, cb=None):
    if cb is not None:
        t = threading.Thread(target=cb, args=(x + 1,))
        t.start()
        t.join()
    return x + 1


TESTS_ASSERTS = """
import math


def assertion(out, exp, atol):
    exact_match = out == exp
    if not exact_match and atol != 0:
        assert math.isclose(out, exp, abs_tol=atol)
    else:
        assert exact_match


def check(candidate):
    inputs = [[1], [41], [0.5], [-3]]
    results = [2, 42, 1.5, -2]
    for inp, exp in zip(inputs, results):
        assertion(candidate(*inp), exp, 1e-6)

    def expect(v):
        assert v == 2
    assertion(candidate(1, expect), 2, 0)


check(f)
"""
TESTS_PYTEST = """
import math
from solution import f


def assertion(out, exp, atol):
    assert out == exp or math.isclose(out, exp, abs_tol=atol)


def test_f():
    for x, y in [(1, 2), (41, 42), (0.5, 1.5)]:
        assertion(f(x), y, 1e-6)


def test_callback():
    def expect(v):
        assert v == 2
    assert f(1, expect) == 2
"""
