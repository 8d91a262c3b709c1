# ruff: noqa
# Correct; the program's dataclasses and namedtuples used by tests that import nothing and set
# no attribute (tests a split check runs apart from the program): equality with instances the
# tests build from the program's classes and with plain tuples, ordering, unpacking, hashing,
# the namedtuple's own methods, a frozen instance's refusal caught by its base class.
import dataclasses
from collections import namedtuple


def f(x):
    return x + 1


@dataclasses.dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0

    def bump(self):
        return Version(self.major, self.minor + 1)


Row = namedtuple("Row", "id name score")


def parse(s):
    a, _, b = s.partition(".")
    return Version(int(a), int(b or 0))


def best(rows):
    return max(rows, key=lambda r: r.score)


def rows_of(text):
    return [Row(i, n, int(s)) for i, (n, s) in enumerate(line.split(",") for line in text.split(";"))]


TESTS_ASSERTS = """
v = parse("3.4")
assert v == Version(3, 4) and v != Version(3, 5)
assert v < Version(3, 10) and sorted([Version(2), v, Version(1, 9)]) == [Version(1, 9), Version(2), v]
assert v.bump() == Version(3, 5) and v.major == 3
assert {v: "x"}[Version(3, 4)] == "x"
assert repr(v) == "Version(major=3, minor=4)"
rows = rows_of("ann,5;bob,9;cy,7")
assert rows[0] == Row(0, "ann", 5) and rows[0] == (0, "ann", 5)
i, name, score = best(rows)
assert (i, name, score) == (1, "bob", 9)
assert best(rows).name == "bob" and best(rows)._asdict() == {"id": 1, "name": "bob", "score": 9}
assert best(rows)._replace(score=0) == Row(1, "bob", 0)
assert [r.score for r in rows] == [5, 9, 7] and Row._fields == ("id", "name", "score")
try:
    v.__setattr__("major", 9)
    assert False
except AttributeError:
    pass
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    v = candidate("3.4")
    assert v == Version(3, 4) and v < Version(3, 10)
    assert v.bump() == Version(3, 5)
    assert {v: "x"}[Version(3, 4)] == "x"
    rows = rows_of("ann,5;bob,9")
    assert rows[0] == (0, "ann", 5)
    i, name, score = best(rows)
    assert (i, name, score) == (1, "bob", 9)
    assert best(rows)._replace(score=0) == Row(1, "bob", 0)


check(parse)
"""
