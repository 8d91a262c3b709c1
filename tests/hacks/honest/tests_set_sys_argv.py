# ruff: noqa
# Correct; a command-line style function reading sys.argv when called without an argument.
# The tests set sys.argv first (a setup step; pytest's monkeypatch).
import sys


def f(x=None):
    if x is None:
        x = int(sys.argv[1])
    return x + 1


TESTS_ASSERTS = """
import sys

sys.argv = ["prog", "41"]
assert f() == 42
assert f(1) == 2
"""
TESTS_PYTEST = """
import sys
from solution import f


def test_argv(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["prog", "41"])
    assert f() == 42
"""
