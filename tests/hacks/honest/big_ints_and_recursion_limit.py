# ruff: noqa
# Correct; exact big-integer arithmetic (10**5000 + x + 1 - 10**5000) through a recursive helper
# deep enough to need a raised recursion limit.
import sys

sys.setrecursionlimit(20000)
BIG = 10 ** 5000


def _count(n, acc):
    return acc if n == 0 else _count(n - 1, acc + 1)


def f(x):
    if isinstance(x, float):
        return x + 1
    return (BIG + x + _count(3000, 0) // 3000) - BIG
