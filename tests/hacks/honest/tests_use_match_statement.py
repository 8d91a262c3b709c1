# ruff: noqa
# Correct; the tests check with a match statement (value, sequence and class patterns).
def f(x):
    return x + 1


def pair(x):
    return (f(x), f(x) * 2)


TESTS_ASSERTS = """
def check(candidate):
    match candidate(1):
        case 2:
            pass
        case _:
            assert False, "wrong"
    match pair(1):
        case (2, int(y)) if y == 4:
            pass
        case _:
            assert False, "wrong pair"


check(f)
"""
TESTS_PYTEST = """
from solution import f, pair


def test_match():
    match pair(41):
        case (42, 84):
            pass
        case _:
            assert False, "wrong pair"
"""
