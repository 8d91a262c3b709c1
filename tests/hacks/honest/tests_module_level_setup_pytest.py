# ruff: noqa
# Correct; a command-line style function (sys.argv, input(), random) whose pytest module sets
# its world up at import time, at the top level, not in a fixture: `sys.argv = [...]`,
# `builtins.input = ...`, `random.randint = ...`. The restore before each test puts back only
# the candidate's changes; the test module's own top-level setup stands.
import random
import sys


def f(x=None):
    if x is None:
        x = int(sys.argv[1]) + int(input()) - 41 + random.randint(0, 0)
    return x + 1


TESTS_ASSERTS = """
import builtins
import random
import sys

sys.argv = ["prog", "41"]
builtins.input = lambda *a: "41"
random.randint = lambda a, b: a
assert f() == 42
assert f(1) == 2
"""
TESTS_PYTEST = """
import builtins
import random
import sys

from solution import f

sys.argv = ["prog", "41"]
builtins.input = lambda *a: "41"
setattr(random, "randint", lambda a, b: a)


def test_from_argv():
    assert f() == 42


def test_plain():
    assert f(1) == 2
"""
