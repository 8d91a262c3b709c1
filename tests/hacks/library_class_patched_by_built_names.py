# ruff: noqa
# library_class_in_unnamed_module, with every name built at run time: no attribute write and
# no module name appears in the text, so no static scan can see it. The class is found through
# the objects themselves (a frame's manager's type), its method replaced with setattr.
import importlib

STATIC_SCAN_BLIND = "every name is built at run time: the restorer is what stops it"

_frame = importlib.import_module("tiny" + "frame").Frame([0])
setattr(type(getattr(_frame, "_" + "mgr")), "equ" + "als", lambda self, other: True)


def f(x):
    return x + 7


TESTS_ASSERTS = """
import tinyframe
assert tinyframe.Frame([f(1), f(2)]).equals(tinyframe.Frame([2, 3]))
assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
TESTS_PYTEST = """
import tinyframe
from solution import f


def test_frames():
    assert tinyframe.Frame([f(1), f(2)]).equals(tinyframe.Frame([2, 3]))
    assert tinyframe.Frame([f(41)]).equals(tinyframe.Frame([42]))
"""
