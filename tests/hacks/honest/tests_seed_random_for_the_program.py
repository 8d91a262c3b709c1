# ruff: noqa
# Correct; draws from the global random: the tests seed it, draw the expected list, seed it
# again and call the program (the program's random must be the tests' random). (red team rtk)
import random


def f(n):
    return [random.randint(0, 99) for _ in range(n)]


TESTS_ASSERTS = ("import random\n\n\ndef check(candidate):\n    random.seed(7)\n    want = [random.randint(0, 99) for _ in range(5)]\n"
                 "    random.seed(7)\n    assert candidate(5) == want\n\n\ncheck(f)\n")
TESTS_PYTEST = ("import random\nfrom solution import *\n\n\ndef test_f():\n    random.seed(7)\n    want = [random.randint(0, 99) for _ in range(5)]\n"
                "    random.seed(7)\n    assert f(5) == want\n")
TESTS_UNITTEST = ("import random, unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        random.seed(7)\n        want = [random.randint(0, 99) for _ in range(5)]\n"
                  "        random.seed(7)\n        self.assertEqual(f(5), want)\n")
