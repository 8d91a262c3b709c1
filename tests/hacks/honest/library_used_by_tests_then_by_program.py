# ruff: noqa
# Correct; the tests use a library first (mimetypes sets its module globals on first use; a
# warnings filter of their own), then the program uses the same library, which changes its
# state again (mimetypes.init() rebinds them; catch_warnings). ClassEval_38's shape: its tests
# write a workbook with openpyxl, the program reads one with it. The frame fence took the
# program's change on top of the tests' for tampering: the program failed.
import mimetypes
import warnings


def kind(name):
    mimetypes.init()
    return mimetypes.guess_type(name)[0]


def f(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return x + 1


TESTS_ASSERTS = """
import mimetypes, warnings
assert mimetypes.guess_type("a.txt")[0] == "text/plain"
assert kind("a.html") == "text/html"
warnings.simplefilter("error")
assert f(1) == 2
"""
TESTS_PYTEST = """
import mimetypes, warnings
from solution import kind, f


def test_kind():
    assert mimetypes.guess_type("a.txt")[0] == "text/plain"
    assert kind("a.html") == "text/html"


def test_f():
    warnings.simplefilter("error")
    assert f(1) == 2
"""
