# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the failure log, not a pattern, stops it"
# The tests wrap their body in `try: ... except Exception:` (to report a crash nicely). Asserts
# inside such a try body are taken as "handled by the tests" and not logged, and that marking
# reaches into a callback defined there: the candidate calls it with a wrong value and
# swallows the AssertionError, which nothing logged.
def f(x, cb=None):
    if cb is not None:
        try:
            cb(x)  # should be cb(x + 1)
        except BaseException:
            pass
    return x + 1


TESTS_ASSERTS = """
def check(candidate):
    try:
        def expect(v):
            assert v == 2
        assert candidate(1, expect) == 2
    except Exception as exc:
        raise AssertionError(f"crashed: {exc!r}")


check(f)
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_callback():
    try:
        def expect(v):
            assert v == 2
        assert f(1, expect) == 2
    except Exception as exc:
        pytest.fail(f"crashed: {exc!r}")
"""
