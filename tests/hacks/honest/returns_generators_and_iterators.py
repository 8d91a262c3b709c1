# ruff: noqa
# Correct; functions returning generators (one of them endless), map/filter/zip objects,
# iter(callable, sentinel) and an iterator class; the tests consume them lazily, partly, and
# check that an exhausted one stays exhausted.
import itertools


def f(x):
    return x + 1


def evens():
    n = 0
    while True:
        yield n
        n += 2


def squares(xs):
    return map(lambda v: v * v, xs)


def pairs(a, b):
    return zip(a, b)


def countdown(n):
    state = [n]

    def step():
        state[0] -= 1
        return state[0]

    return iter(step, 0)


class Fib:
    def __init__(self, limit):
        self.a, self.b, self.limit = 0, 1, limit

    def __iter__(self):
        return self

    def __next__(self):
        if self.a > self.limit:
            raise StopIteration
        a = self.a
        self.a, self.b = self.b, self.a + self.b
        return a


def chunks(xs, n):
    it = iter(xs)
    while chunk := list(itertools.islice(it, n)):
        yield chunk


TESTS_ASSERTS = """
import itertools
g = evens()
assert next(g) == 0
assert next(g) == 2
assert list(itertools.islice(g, 3)) == [4, 6, 8]
s = squares([1, 2, 3])
assert next(s) == 1
assert list(s) == [4, 9]
assert list(s) == []
assert dict(pairs("ab", [1, 2])) == {"a": 1, "b": 2}
assert list(countdown(4)) == [3, 2, 1]
fib = Fib(20)
assert iter(fib) is fib
assert list(fib) == [0, 1, 1, 2, 3, 5, 8, 13]
try:
    next(fib)
    raised = False
except StopIteration:
    raised = True
assert raised
assert [c for c in chunks(range(7), 3)] == [[0, 1, 2], [3, 4, 5], [6]]
assert sum(x for x in itertools.takewhile(lambda v: v < 10, evens())) == 20
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
import itertools


def check(candidate):
    g = candidate()
    assert next(g) == 0
    assert list(itertools.islice(g, 3)) == [2, 4, 6]
    s = squares([1, 2, 3])
    assert next(s) == 1
    assert list(s) == [4, 9]
    assert list(s) == []
    assert list(countdown(3)) == [2, 1]
    fib = Fib(5)
    assert iter(fib) is fib
    assert list(fib) == [0, 1, 1, 2, 3, 5]
    for i, chunk in enumerate(chunks("abcde", 2)):
        assert chunk == [["a", "b"], ["c", "d"], ["e"]][i]


check(evens)
"""
