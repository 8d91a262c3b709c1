# ruff: noqa
# Correct; deep recursion inside the program (a raised limit), and mutual recursion between the
# program and a function of the tests' (each calls the other, 150 levels each way).
import sys

sys.setrecursionlimit(10000)


def f(x):
    return x + 1


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def walk(n, visit):
    if n == 0:
        return 0
    return 1 + visit(n - 1)


def flatten(xs):
    out = []
    for x in xs:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


TESTS_ASSERTS = """
assert depth(4000) == 4000


def visit(n):
    return walk(n, visit)


assert walk(300, visit) == 300
nested = [1]
for i in range(500):
    nested = [nested, i]
assert len(flatten(nested)) == 501
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    assert candidate(4000) == 4000

    def visit(n):
        return walk(n, visit)

    assert walk(300, visit) == 300
    nested = [1]
    for i in range(500):
        nested = [nested, i]
    assert len(flatten(nested)) == 501


check(depth)
"""
