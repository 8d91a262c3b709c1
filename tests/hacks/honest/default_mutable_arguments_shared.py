# ruff: noqa
# Correct by its own contract: default mutable arguments that keep what earlier calls put in
# them (the classic Python gotcha, used on purpose as an accumulator); the tests rely on the
# same list coming back each time.
def f(x):
    return x + 1


def collect(x, acc=[]):
    acc.append(x)
    return acc


def tally(word, counts={}):
    counts[word] = counts.get(word, 0) + 1
    return counts[word]


TESTS_ASSERTS = """
a = collect(1)
b = collect(2)
assert a is b
assert a == [1, 2]
assert collect(3, []) == [3]
assert collect(4) == [1, 2, 4]
assert tally("x") == 1 and tally("x") == 2 and tally("y") == 1
assert tally.__defaults__[0] == {"x": 2, "y": 1}
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    a = candidate(1)
    b = candidate(2)
    assert a is b and a == [1, 2]
    assert candidate(3, []) == [3]
    assert tally("x") == 1 and tally("x") == 2


check(collect)
"""
