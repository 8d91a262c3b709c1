# ruff: noqa
# Correct; returns two references to one list and a list that contains itself: the tests check
# the aliasing and the cycle, as Python keeps them. (red team rtk)
def f(x):
    shared = [x]
    loop = [x + 1]
    loop.append(loop)
    return [shared, shared], loop


TESTS_ASSERTS = ("def check(candidate):\n    pair, loop = candidate(1)\n    pair[0].append(5)\n    assert pair[1] == [1, 5]\n"
                 "    assert pair[0] is pair[1]\n    assert loop[1] is loop and loop[0] == 2\n\n\ncheck(f)\n")
TESTS_PYTEST = ("from solution import *\n\n\ndef test_f():\n    pair, loop = f(1)\n    pair[0].append(5)\n    assert pair[1] == [1, 5]\n"
                "    assert loop[1] is loop and loop[0] == 2\n")
