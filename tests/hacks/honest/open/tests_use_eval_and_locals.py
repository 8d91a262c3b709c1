# ruff: noqa
# The tests call builtins that read their caller's frame: eval of a string naming the tests'
# own names, locals(), vars(), dir(). The fence's rewrite ran them in the fence's frame.
def f(x):
    return x + 1


TESTS_ASSERTS = """
def check(candidate):
    assert eval("candidate(1)") == 2
    k = 5
    assert locals()["k"] == 5
    assert "k" in dir()
    assert vars()["k"] == 5


check(f)
"""
TESTS_PYTEST = """
from solution import *


def test_eval():
    assert eval("f(1)") == 2


def test_locals():
    k = 5
    assert locals()["k"] == 5 and "k" in dir() and vars()["k"] == 5
"""
