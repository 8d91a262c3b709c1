# ruff: noqa
import sys

sys.setrecursionlimit(20000)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def f(x):
    return x + 1 + depth(5000) - 5000
