# ruff: noqa
# Correct; formats the traceback of an exception it handles itself (traceback.format_exc). (red team rtk)
import traceback


def f(x):
    try:
        return int(x) + 1
    except ValueError:
        note = traceback.format_exc()
        return -1 if "ValueError" in note else -2


TESTS_ASSERTS = "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate('a') == -1\n\n\ncheck(f)\n"
TESTS_PYTEST = "from solution import *\n\n\ndef test_f():\n    assert f(1) == 2\n    assert f('a') == -1\n"
TESTS_UNITTEST = ("import unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        self.assertEqual(f(1), 2)\n        self.assertEqual(f('a'), -1)\n")
