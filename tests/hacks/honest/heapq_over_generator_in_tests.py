# ruff: noqa
# Correct; a generator of answers, which the tests consume with heapq.nsmallest / nlargest.
def f(x):
    return x + 1


def answers(xs):
    for x in xs:
        yield f(x)


TESTS_ASSERTS = """
import heapq
assert heapq.nsmallest(2, answers([5, 1, 3])) == [2, 4]
assert heapq.nlargest(1, answers([5, 1, 3])) == [6]
"""
TESTS_PYTEST = """
import heapq
from solution import answers


def test_heap():
    assert heapq.nsmallest(2, answers([5, 1, 3])) == [2, 4]
"""
