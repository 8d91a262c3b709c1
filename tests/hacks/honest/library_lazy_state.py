# A correct f that uses a library which changes its own state as it runs (tinyframe, a
# stand-in for pandas, tests/helpers/standin.py): a class attribute made on first call, a
# warning's registry in its module, a submodule bound by the package's `__getattr__`, an
# lru_cache filled. The restorer puts the libraries' state back as it was before the
# candidate ran (issue 15): what the library did lazily is undone too, and must simply happen
# again when the tests use it. A rule that failed every check whose libraries' state changed
# would score this 0.
import tinyframe


def f(x):
    frame = tinyframe.Frame([x])
    frame.summary()
    tinyframe.plotting.kind()
    frame._mgr.width()
    return x + 1


TESTS_ASSERTS = """
import tinyframe
assert f(1) == 2
assert tinyframe.Frame([f(1), f(2)]).summary() == (2, 5)
assert tinyframe.plotting.kind() == "line"
tinyframe.testing.assert_frame_equal(tinyframe.Frame([f(41)]), tinyframe.Frame([42]))
assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
TESTS_PYTEST = """
import tinyframe
from solution import f


def test_lazy_state():
    assert f(1) == 2
    assert tinyframe.Frame([f(1), f(2)]).summary() == (2, 5)
    assert tinyframe.plotting.kind() == "line"
    tinyframe.testing.assert_frame_equal(tinyframe.Frame([f(41)]), tinyframe.Frame([42]))
    assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
