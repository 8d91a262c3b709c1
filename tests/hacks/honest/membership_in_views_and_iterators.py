# ruff: noqa
# Correct; the tests ask `x in ...` of what the program returns where Python answers by walking
# the items: a dict's values, an OrderedDict's views, dict items holding lists, generators,
# map/filter/zip/enumerate, iterators and itertools' objects. Each scored 0 before (membership
# was decided only for lists, tuples, sets, dicts, str and range).
import itertools
from collections import OrderedDict


def f(x):
    return x + 1


def squares(n):
    return {i: i * i for i in range(n)}


def groups(n):
    return OrderedDict((i, [i]) for i in range(n))


def evens(n):
    return (i for i in range(n) if i % 2 == 0)


def pairs(xs):
    return zip(xs, xs[1:])


TESTS_ASSERTS = """
import itertools
assert 4 in squares(3).values()
assert 9 not in squares(3).values()
assert 1 in groups(2).keys() and [1] in groups(2).values() and (1, [1]) in groups(2).items()
assert (1, [1]) in dict(groups(2)).items()
assert 4 in evens(5) and 3 not in evens(5)
assert (1, 2) in pairs([1, 2, 3])
assert 2 in map(f, [0, 1]) and 3 in filter(None, [0, 3]) and (0, "a") in enumerate("a")
assert 6 in itertools.chain([1], map(f, [5])) and 8 in itertools.count(0, 2)
assert "a" in reversed("ab") and 1 in iter(squares(2).values())
assert f(1) == 2 and f(41) == 42
"""
TESTS_PYTEST = """
import itertools
import unittest
from solution import f, squares, groups, evens, pairs


def test_membership():
    assert 4 in squares(3).values()
    assert 9 not in squares(3).values()
    assert (1, [1]) in groups(2).items()
    assert 4 in evens(5)
    assert (1, 2) in pairs([1, 2, 3])
    assert 8 in itertools.count(0, 2)
    assert f(1) == 2


class TestUnittest(unittest.TestCase):
    def test_assert_in(self):
        self.assertIn(4, squares(3).values())
        self.assertNotIn(9, squares(3).values())
        self.assertIn([1], groups(2).values())
        self.assertIn(2, evens(3))
        self.assertIn(2, map(f, [1]))
"""
