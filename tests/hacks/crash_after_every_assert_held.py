# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the assert's own record (runner._step_verdicts), not a pattern, stops it"
# Right where check() asserts, a crash where it calls the program outside an assert: a bare
# call after the asserts, a `finally` that calls it, a nested test function check() calls in
# a try that raises again. Every assert of the call held and sat before the crash line, so
# none failed: 1.0 on main 295f035, though check() raised and `python` fails. A call that
# raised passes no row whole.
def f(x):
    if x == 1:
        return 2
    raise ValueError("no answer")


TESTS_HUMANEVAL = """
def check(candidate):
    assert candidate(1) == 2
    candidate(41)


def check_finally(candidate):
    try:
        assert candidate(1) == 2
    finally:
        candidate(41)


def check_nested(candidate):
    assert candidate(1) == 2
    def more():
        assert candidate(41) == 42
    try:
        more()
    except Exception as exc:
        raise AssertionError(f"crashed: {exc!r}")


check(f)
check_finally(f)
check_nested(f)
"""
TESTS_ASSERTS = """
assert f(1) == 2
f(41)
"""
TESTS_PYTEST = """
from solution import f


def test_f():
    assert f(1) == 2
    f(41)
"""
