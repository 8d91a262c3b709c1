# ruff: noqa
# Correct; the program returns closures and decorators, the tests decorate their own functions
# with the program's decorator, pass lambdas and closures over their own state to the program,
# and the program calls them back many times (sort keys, reducers, predicates).
import functools


def f(x):
    return x + 1


def make_adder(n):
    def add(x):
        return x + n
    return add


def compose(*fns):
    def run(x):
        for fn in reversed(fns):
            x = fn(x)
        return x
    return run


def memoize(fn):
    cache = {}

    @functools.wraps(fn)
    def wrapper(*args):
        if args not in cache:
            cache[args] = fn(*args)
        return cache[args]
    wrapper.cache = cache
    return wrapper


def apply_all(fn, xs):
    return [fn(x) for x in xs]


def sort_by(xs, key):
    return sorted(xs, key=key)


def keep(pred, xs):
    return [x for x in xs if pred(x)]


TESTS_ASSERTS = """
add3 = make_adder(3)
assert add3(4) == 7
assert callable(add3)
assert compose(make_adder(1), lambda v: v * 10)(2) == 21
calls = []


@memoize
def slow_square(x):
    calls.append(x)
    return x * x


assert slow_square(4) == 16 and slow_square(4) == 16
assert calls == [4]
assert slow_square.__name__ == "slow_square"
assert slow_square.cache == {(4,): 16}
assert apply_all(lambda v: v * 2, [1, 2, 3]) == [2, 4, 6]
assert sort_by([(1, "b"), (2, "a")], key=lambda p: p[1]) == [(2, "a"), (1, "b")]
seen = []
assert keep(lambda v: seen.append(v) or v % 2, range(5)) == [1, 3]
assert seen == [0, 1, 2, 3, 4]
assert apply_all(make_adder(10), [1]) == [11]
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    add3 = candidate(3)
    assert add3(4) == 7
    assert compose(candidate(1), lambda v: v * 10)(2) == 21
    calls = []

    @memoize
    def slow_square(x):
        calls.append(x)
        return x * x

    assert slow_square(4) == 16 and slow_square(4) == 16
    assert calls == [4]
    assert slow_square.__name__ == "slow_square"
    seen = []
    assert keep(lambda v: seen.append(v) or v % 2, range(5)) == [1, 3]
    assert seen == [0, 1, 2, 3, 4]


check(make_adder)
"""
