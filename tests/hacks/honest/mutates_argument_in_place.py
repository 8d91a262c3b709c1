# ruff: noqa
# Correct; functions that change their arguments in place (list, dict, nested list, bytearray)
# and return None, as MBPP/HumanEval-style "sort in place" tasks do; the tests assert on their
# own objects afterwards (the program must have changed the tests' object, not a copy).
def f(x):
    return x + 1


def sort_in_place(xs):
    xs.sort()


def add_one_each(xs):
    for i in range(len(xs)):
        xs[i] += 1
    return xs


def set_default_keys(d, keys):
    for k in keys:
        d.setdefault(k, 0)


def zero_diagonal(m):
    for i in range(len(m)):
        m[i][i] = 0


def fill(buf, byte):
    for i in range(len(buf)):
        buf[i] = byte
    return len(buf)


TESTS_ASSERTS = """
a = [3, 1, 2]
assert sort_in_place(a) is None
assert a == [1, 2, 3]
b = [1, 2]
r = add_one_each(b)
assert b == [2, 3]
assert r is b
d = {"x": 5}
set_default_keys(d, ["x", "y"])
assert d == {"x": 5, "y": 0}
m = [[1, 2], [3, 4]]
row = m[1]
zero_diagonal(m)
assert m == [[0, 2], [3, 0]]
assert row == [3, 0]
buf = bytearray(3)
assert fill(buf, 7) == 3
assert buf == bytearray(b"\\x07\\x07\\x07")
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    a = [3, 1, 2]
    assert candidate(a) is None
    assert a == [1, 2, 3]
    b = [1, 2]
    r = add_one_each(b)
    assert b == [2, 3] and r is b
    d = {"x": 5}
    set_default_keys(d, ["x", "y"])
    assert d == {"x": 5, "y": 0}
    m = [[1, 2], [3, 4]]
    row = m[1]
    zero_diagonal(m)
    assert m == [[0, 2], [3, 0]]
    assert row == [3, 0]
    buf = bytearray(3)
    assert fill(buf, 7) == 3
    assert buf == bytearray(b"\\x07\\x07\\x07")


check(sort_in_place)
"""
TESTS_PYTEST = """
from solution import sort_in_place, add_one_each, zero_diagonal


def test_in_place():
    a = [3, 1, 2]
    assert sort_in_place(a) is None
    assert a == [1, 2, 3]
    b = [1, 2]
    assert add_one_each(b) is b
    assert b == [2, 3]
    m = [[1, 2], [3, 4]]
    row = m[1]
    zero_diagonal(m)
    assert row == [3, 0]
"""
