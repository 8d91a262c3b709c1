# ruff: noqa
# Correct; results are classes written on collections.abc.Set and Mapping (the ABCs supply
# __eq__, or the class writes its own), compared with plain sets and dicts as Python compares
# them: by elements and items.
import collections.abc


class Bag(collections.abc.Set):
    def __init__(self, items):
        self._items = set(items)

    def __contains__(self, x):
        return x in self._items

    def __iter__(self):
        return iter(sorted(self._items))

    def __len__(self):
        return len(self._items)


class Tags(collections.abc.Set):
    def __init__(self, items):
        self._items = frozenset(items)

    def __contains__(self, x):
        return x in self._items

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __eq__(self, other):
        return set(self) == set(other)

    __hash__ = collections.abc.Set._hash


class Record(collections.abc.Mapping):
    def __init__(self, **fields):
        self._fields = dict(fields)

    def __getitem__(self, k):
        return self._fields[k]

    def __iter__(self):
        return iter(self._fields)

    def __len__(self):
        return len(self._fields)


def neighbours(x):
    return Bag([x - 1, x + 1])


def tags(x):
    return Tags(["odd" if x % 2 else "even", "int"])


def record(x):
    return Record(x=x, succ=x + 1)


def f(x):
    return x + 1


TESTS_ASSERTS = """
assert neighbours(2) == {1, 3}
assert {1, 3} == neighbours(2)
assert neighbours(2) != {1, 2}
assert 3 in neighbours(2) and len(neighbours(2)) == 2
assert tags(3) == {"odd", "int"}
assert record(1) == {"x": 1, "succ": 2}
assert record(1) != {"x": 1, "succ": 3}
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import neighbours, tags, record, f

def test_sets():
    assert neighbours(2) == {1, 3}
    assert frozenset({1, 3}) == neighbours(2)
    assert tags(4) == {"even", "int"}

def test_mapping():
    assert record(1) == {"x": 1, "succ": 2}
    assert dict(record(1)) == {"x": 1, "succ": 2}

def test_f():
    assert f(1) == 2
"""
