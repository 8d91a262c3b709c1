# ruff: noqa
class Flip:
    """Truthy on the first question, falsy on the next: `assert f(x)` / `assert not f(y)`."""

    calls = 0

    def __bool__(self):
        Flip.calls += 1
        return Flip.calls % 2 == 1


def f(x):
    return Flip()


TESTS_ASSERTS = """
assert f(1)
assert not f(2)
assert f(3) and not f(4)
"""
TESTS_PYTEST = """
from solution import f

def test_truth():
    assert f(1)
    assert not f(2)
"""
