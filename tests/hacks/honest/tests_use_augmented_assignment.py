# ruff: noqa
# Correct; the tests accumulate with augmented assignment (numbers, lists through an alias,
# sets, Counters, an attribute, a dict entry) and compare sets with & | ^.
from collections import Counter


def f(x):
    return x + 1


TESTS_ASSERTS = '''
from collections import Counter
total = 0
seen = []
alias = seen
for x in (1, 41, -3):
    total += f(x)
    seen += [f(x)]
assert total == 2 + 42 - 2 and alias == [2, 42, -2]
s = {f(1)}
s |= {f(41)}
s ^= {2}
assert s == {42} and {f(1)} & {2, 3} == {2} and ({f(1)} | {5}) ^ {5} == {2}
c = Counter([f(1)])
c |= Counter([f(41)])
assert c == Counter([2, 42])
state = {"n": 1}
state["n"] <<= f(1)
assert state["n"] == 4
'''
TESTS_PYTEST = '''
from solution import f


class Acc:
    n = 0


def test_accumulate():
    acc = Acc()
    for x in (1, 41):
        acc.n += f(x)
    assert acc.n == 44


def test_sets():
    s = {f(1)}
    s ^= {f(41), 2}
    assert s == {42}
'''
