# ruff: noqa
# The tests call builtins that read their caller's frame (eval of a string naming the tests'
# own names, locals(), vars(), dir()) in pytest test functions: the fence's rewrite ran them in
# the fence's frame (red team rty); left as written now (strict.FRAME_BOUND).
def f(x):
    return x + 1


TESTS_PYTEST = """
from solution import *


def test_eval():
    assert eval("f(1)") == 2


def test_locals():
    k = 5
    assert locals()["k"] == 5 and "k" in dir() and vars()["k"] == 5
"""
