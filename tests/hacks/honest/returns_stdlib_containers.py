# ruff: noqa
# Correct, returning OrderedDict, Counter, defaultdict, deque and namedtuple where the tests
# expect plain values (or the same container).
import collections

P = collections.namedtuple("P", "a b")


def f(x):
    return x + 1


def counts(s):
    return collections.Counter(s)


def grouped(xs):
    d = collections.defaultdict(list)
    for x in xs:
        d[x % 2].append(x)
    return d


def ordered(xs):
    return collections.OrderedDict((x, x * x) for x in xs)


def window(xs):
    return collections.deque(xs, maxlen=2)


def pair(x):
    return P(x, x + 1)


TESTS_ASSERTS = """
import collections
assert counts("aab") == {"a": 2, "b": 1}
assert grouped([1, 2, 3]) == {1: [1, 3], 0: [2]}
assert ordered([2, 1]) == {1: 1, 2: 4}
assert ordered([2, 1]) == collections.OrderedDict([(2, 4), (1, 1)])
assert window([1, 2, 3]) == collections.deque([2, 3])
assert pair(1) == (1, 2)
assert f(1) == 2
"""
TESTS_PYTEST = """
import collections
from solution import counts, grouped, ordered, window, pair, f


def test_containers():
    assert counts("aab") == {"a": 2, "b": 1}
    assert grouped([1, 2, 3]) == {1: [1, 3], 0: [2]}
    assert ordered([2, 1]) == {1: 1, 2: 4}
    assert window([1, 2, 3]) == collections.deque([2, 3])
    assert pair(1) == (1, 2)
    assert f(1) == 2
"""
