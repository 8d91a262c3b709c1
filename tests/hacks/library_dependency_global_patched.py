# ruff: noqa
# The tests import tinyframe (a stand-in for pandas, tests/helpers/standin.py) only; its
# comparisons end in tinycore._impl.same, which looks `_eq` up in its module's globals at call
# time (pandas ends in numpy's functions the same way). tinycore is another package, reached
# through tinyframe, and its private module is held by nothing the tests' packages hold: the
# restorer never looked at it, and `_eq` said True for every pair (issue 15).
import tinycore._impl

tinycore._impl._eq = lambda x, y: True


def f(x):
    return x + 7


TESTS_ASSERTS = """
import tinyframe
tinyframe.testing.assert_frame_equal(tinyframe.Frame([f(1), f(2)]), tinyframe.Frame([2, 3]))
assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
TESTS_PYTEST = """
import tinyframe
from solution import f


def test_frames():
    tinyframe.testing.assert_frame_equal(tinyframe.Frame([f(1), f(2)]), tinyframe.Frame([2, 3]))
    assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
