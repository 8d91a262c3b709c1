# ruff: noqa
STATIC_SCAN_BLIND = "plain code: the failure log, not a pattern, stops it"
# The callback from the tests runs in a thread of the candidate's: its failed assert ends that
# thread and goes to threading.excepthook, never to the test that handed the callback over.
import threading


def f(x, cb=None):
    if cb is not None:
        t = threading.Thread(target=cb, args=(x,))  # should be x + 1
        t.start()
        t.join()
    return x + 1


TESTS_ASSERTS = """
def check(candidate):
    def expect(v):
        assert v == 2
    assert candidate(1, expect) == 2


check(f)
"""
TESTS_PYTEST = """
from solution import f


def test_callback():
    def expect(v):
        assert v == 2
    assert f(1, expect) == 2
"""
