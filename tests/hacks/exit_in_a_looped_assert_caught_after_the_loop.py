# ruff: noqa
# Right on the first case, sys.exit(0) on the second, from inside check()'s assert. A soft
# assert takes what its expression raises only if it is an Exception: SystemExit leaves it, the
# tests catch it (`except SystemExit`, which does not catch an AssertionError, so the asserts
# stay soft) and raise after the loop. The assert had held once; the crash line sat after it:
# 1.0 on main 295f035, both for a plain assert and one evaluated in check()'s own frame (eval).
import sys


def f(x):
    if x == 1:
        return 2
    sys.exit(0)


TESTS_HUMANEVAL = """
def check(candidate):
    try:
        for x in (1, 41):
            assert candidate(x) == x + 1
    except SystemExit as exc:
        raise AssertionError(f"exited: {exc!r}")


def check_eval(candidate):
    try:
        for x in (1, 41):
            assert eval("candidate(x)") == x + 1
    except SystemExit as exc:
        raise AssertionError(f"exited: {exc!r}")


check(f)
check_eval(f)
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    try:
        for x in (1, 41):
            assert f(x) == x + 1
    except SystemExit as exc:
        pytest.fail(f"exited: {exc!r}")
"""
