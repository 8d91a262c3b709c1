# ruff: noqa
# Correct; the tests check the exact types of its results (`type(r) is list`, `type(d) == dict`). (red team rtk)
def f(x):
    return [x + 1], {"v": x + 1}, (x + 1,), x + 1


TESTS_ASSERTS = ("def check(candidate):\n    a, b, c, d = candidate(1)\n    assert type(a) is list and type(b) == dict\n"
                 "    assert isinstance(c, tuple) and type(d) is int\n    assert a == [2] and b == {'v': 2} and c == (2,) and d == 2\n\n\ncheck(f)\n")
TESTS_PYTEST = ("from solution import *\n\n\ndef test_f():\n    a, b, c, d = f(1)\n    assert type(a) is list and type(b) == dict\n"
                "    assert isinstance(c, tuple) and type(d) is int\n")
