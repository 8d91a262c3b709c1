# ruff: noqa
# Correct; big integers (past the 4,300-digit str limit, negative, as dict keys), float nan and
# inf and -0.0 returned and checked the ways tests do (math.isnan, ==, copysign), and the same
# nan object held in a list (list equality's identity shortcut: [x] == [x] for a nan x).
import math


def f(x):
    return x + 1


def power(b, e):
    return b ** e


def factorial(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def safe_div(a, b):
    if b == 0:
        return math.copysign(math.inf, a) if a else math.nan
    return a / b


def negate(x):
    return -x


def same_twice(x):
    return [x, x]


TESTS_ASSERTS = """
import math
big = power(10, 5000)
assert big == 10 ** 5000
assert big > 0 and big % 7 == 10 ** 5000 % 7
assert power(-3, 4001) == -(3 ** 4001)
assert factorial(2000) // factorial(1999) == 2000
assert {power(2, 200): "k"}[2 ** 200] == "k"
assert safe_div(1, 0) == float("inf") and safe_div(-1, 0) == -math.inf
assert math.isnan(safe_div(0, 0))
n = safe_div(0, 0)
assert n != n
assert math.isinf(safe_div(5, 0))
z = negate(0.0)
assert z == 0.0 and math.copysign(1, z) == -1.0
nan = float("nan")
pair = same_twice(nan)
assert pair[0] is pair[1]
assert pair == [nan, nan]
assert safe_div(1, 4) == 0.25
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
import math


def check(candidate):
    assert candidate(10, 5000) == 10 ** 5000
    assert candidate(-3, 4001) == -(3 ** 4001)
    assert safe_div(1, 0) == float("inf")
    assert math.isnan(safe_div(0, 0))
    z = negate(0.0)
    assert math.copysign(1, z) == -1.0
    nan = float("nan")
    assert same_twice(nan) == [nan, nan]


check(power)
"""
