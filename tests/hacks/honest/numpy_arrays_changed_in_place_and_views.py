# ruff: noqa
# Correct; numpy: the program returns new arrays, fills the tests' array in place (out=,
# slicing assignment), and returns a view the tests write through to their own array.
import numpy as np


def f(x):
    return x + 1


def normalize(a):
    return a / a.sum()


def increment_in_place(a):
    np.add(a, 1, out=a)


def clip_negative(a):
    a[a < 0] = 0
    return None


def first_half(a):
    return a[: len(a) // 2]


def outer(a, b):
    return np.outer(a, b)


TESTS_ASSERTS = """
import numpy as np
a = np.array([1.0, 3.0])
assert np.allclose(normalize(a), [0.25, 0.75])
b = np.arange(4)
increment_in_place(b)
assert b.tolist() == [1, 2, 3, 4]
c = np.array([-1, 2, -3])
assert clip_negative(c) is None
assert (c == np.array([0, 2, 0])).all()
d = np.arange(6)
v = first_half(d)
v[0] = 99
assert d[0] == 99 and v.base is d
assert outer(np.array([1, 2]), np.array([3, 4])).shape == (2, 2)
assert np.array_equal(outer(np.array([1, 2]), np.array([3, 4])), [[3, 4], [6, 8]])
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
import numpy as np


def check(candidate):
    assert np.allclose(candidate(np.array([1.0, 3.0])), [0.25, 0.75])
    b = np.arange(4)
    increment_in_place(b)
    assert b.tolist() == [1, 2, 3, 4]
    d = np.arange(6)
    v = first_half(d)
    v[0] = 99
    assert d[0] == 99


check(normalize)
"""
