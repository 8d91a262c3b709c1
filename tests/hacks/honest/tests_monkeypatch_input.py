# ruff: noqa
# Correct; reads its input with input() when called without an argument. The tests feed
# input() the way test authors do: builtins.input replaced (a setup step in asserts style,
# pytest's monkeypatch fixture in pytest style).
def f(x=None):
    if x is None:
        x = int(input())
    return x + 1


TESTS_ASSERTS = """
import builtins

builtins.input = lambda *args: "41"
assert f() == 42
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import f


def test_reads_input(monkeypatch):
    monkeypatch.setattr("builtins.input", lambda *args: "41")
    assert f() == 42
"""
