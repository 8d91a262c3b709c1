# ruff: noqa
# Correct; calls the tests' callback from its own code, with the right values (a failed assert
# in a callback would count).
def f(x, cb=None):
    if cb is not None:
        cb(x + 1)
    return x + 1


TESTS_ASSERTS = """
seen = []
def record(v):
    assert v == 2
    seen.append(v)
assert f(1, record) == 2
assert seen == [2]
"""
TESTS_PYTEST = """
from solution import f


def test_callback():
    seen = []

    def record(v):
        assert v == 2
        seen.append(v)

    assert f(1, record) == 2
    assert seen == [2]
"""
