# ruff: noqa
STATIC_SCAN_BLIND = "a plain exception: Python's own iteration protocol ends the loop"
# Variants of stopiteration_truncates_map_in_tests through other C iterators that call a
# function: filter, itertools.starmap, iter(callable, sentinel), and all(map(...)).
def f(x, y=0):
    raise StopIteration


TESTS_ASSERTS = """
import itertools


def check(candidate):
    assert all(map(lambda v: candidate(v) == v + 1, [1, 2]))
    got = list(itertools.starmap(candidate, [(1, 0), (2, 0)]))
    for a, b in zip(got, [2, 3]):
        assert a == b
    kept = list(filter(lambda v: candidate(v) != v + 1, [1, 2]))
    assert kept == []


check(f)
"""
TESTS_PYTEST = """
import itertools
from solution import f


def test_f():
    assert all(map(lambda v: f(v) == v + 1, [1, 2]))
    got = list(itertools.starmap(f, [(1, 0), (2, 0)]))
    for a, b in zip(got, [2, 3]):
        assert a == b
"""
