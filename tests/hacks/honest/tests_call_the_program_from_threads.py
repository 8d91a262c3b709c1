# ruff: noqa
# Correct; the tests call it from four threads at once (ThreadPoolExecutor.map). (red team rtk)
def f(x):
    return x + 1


TESTS_ASSERTS = ("from concurrent.futures import ThreadPoolExecutor\n\n\ndef check(candidate):\n"
                 "    with ThreadPoolExecutor(4) as ex:\n        assert list(ex.map(candidate, range(40))) == list(range(1, 41))\n\n\ncheck(f)\n")
TESTS_PYTEST = ("from concurrent.futures import ThreadPoolExecutor\nfrom solution import *\n\n\ndef test_f():\n"
                "    with ThreadPoolExecutor(4) as ex:\n        assert list(ex.map(f, range(40))) == list(range(1, 41))\n")
