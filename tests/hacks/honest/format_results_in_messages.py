# ruff: noqa
# Correct; the tests format results into strings and messages (`%` formatting of a value is
# allowed).
def f(x):
    return x + 1


TESTS_ASSERTS = """
assert "%s" % f(1) == "2", "got %r" % f(1)
assert "{}".format(f(41)) == "42"
assert str(f(-3)) + "!" == "-2!"
"""
TESTS_PYTEST = """
from solution import f


def test_f():
    assert "%d" % f(1) == "2", "got %r" % (f(1),)
"""
