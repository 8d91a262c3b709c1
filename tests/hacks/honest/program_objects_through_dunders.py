# ruff: noqa
# Correct; a program's Vector used through Python's protocols by the tests: arithmetic between
# vectors, len, indexing and slicing, iteration and unpacking, hash (set and dict keys),
# ordering via sorted and min, str/repr/format, a context manager, and the program's methods
# called with the tests' ints (no import: tests a split check runs apart from the program). (Arithmetic between a vector and an int, the
# truth of a vector and `in` a vector are refused by design in the tests' own expressions:
# docs/fidelity.md "Strict equality, precisely".)
import math


def f(x):
    return x + 1


class Vector:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __add__(self, other):
        if isinstance(other, Vector):
            return Vector(*(a + b for a, b in zip(self.xs, other.xs)))
        return Vector(*(a + other for a in self.xs))

    __radd__ = __add__

    def __mul__(self, k):
        return Vector(*(a * k for a in self.xs))

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __abs__(self):
        return math.sqrt(sum(a * a for a in self.xs))

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Vector(*self.xs[i])
        return self.xs[i]

    def __iter__(self):
        return iter(self.xs)

    def __contains__(self, v):
        return v in self.xs

    def __bool__(self):
        return any(self.xs)

    def __eq__(self, other):
        return isinstance(other, Vector) and self.xs == other.xs

    def __hash__(self):
        return hash(tuple(self.xs))

    def __lt__(self, other):
        return abs(self) < abs(other)

    def __repr__(self):
        return f"Vector({', '.join(map(str, self.xs))})"

    def __format__(self, spec):
        return "<" + ", ".join(format(a, spec) for a in self.xs) + ">"

    def __enter__(self):
        self.entered = True
        return self

    def __exit__(self, *exc):
        self.entered = False
        return False


TESTS_ASSERTS = """
v = Vector(3, 4)
assert v + Vector(1, 1) == Vector(4, 5)
assert v.__add__(1) == Vector(4, 5) and v.__mul__(2) == Vector(6, 8)
assert len(v) == 2 and v.__abs__() == 5.0
assert v[0] == 3 and v[-1] == 4 and v[:1] == Vector(3)
x, y = v
assert (x, y) == (3, 4) and list(v) == [3, 4]
assert v.__contains__(4) and bool(v.__bool__()) and not Vector(0, 0).__bool__()
assert min([v, Vector(1, 0)]) == Vector(1, 0)
assert {v, Vector(3, 4)} == {Vector(3, 4)} and {v: 1}[Vector(3, 4)] == 1
assert sorted([v, Vector(1, 0)]) == [Vector(1, 0), v]
assert repr(v) == "Vector(3, 4)" and str([v]) == "[Vector(3, 4)]"
assert f"{Vector(1.5, 2):.1f}" == "<1.5, 2.0>"
with Vector(1) as inside:
    assert inside.entered
assert not inside.entered
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    v = candidate(3, 4)
    assert v + candidate(1, 1) == candidate(4, 5)
    assert v.__neg__() == candidate(-3, -4)
    assert len(v) == 2 and v[-1] == 4
    x, y = v
    assert (x, y) == (3, 4) and list(v) == [3, 4]
    assert sorted([v, candidate(1, 0)]) == [candidate(1, 0), v]
    assert repr(v) == "Vector(3, 4)"
    assert {v: 1}[candidate(3, 4)] == 1


check(Vector)
"""
