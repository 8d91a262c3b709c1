# ruff: noqa
# Correct; the tests compare with `is`: None, True/False, a singleton the program keeps, the
# tests' own object handed back unchanged, the same cached object twice, a fresh list that
# must not be the argument.
def f(x):
    return x + 1


_DEFAULT = object()
_cache = {}


def find(xs, target):
    for x in xs:
        if x == target:
            return x
    return None


def is_even(n):
    return n % 2 == 0


def sentinel():
    return _DEFAULT


def first(xs):
    return xs[0]


def cached_list(key):
    return _cache.setdefault(key, [key])


def copy_of(xs):
    return list(xs)


TESTS_ASSERTS = """
assert find([1, 2], 3) is None
assert find([1, 2], 2) is not None
assert is_even(2) is True and is_even(3) is False
assert sentinel() is sentinel()
mine = {"k": 1}
assert first([mine]) is mine
assert cached_list("a") is cached_list("a")
assert cached_list("a") is not cached_list("b")
src = [1, 2]
dup = copy_of(src)
assert dup == src and dup is not src
assert first([None, 1]) is None
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    assert candidate([1, 2], 3) is None
    assert is_even(2) is True and is_even(3) is False
    assert sentinel() is sentinel()
    mine = {"k": 1}
    assert first([mine]) is mine
    assert cached_list("a") is cached_list("a")
    src = [1, 2]
    dup = copy_of(src)
    assert dup == src and dup is not src


check(find)
"""
