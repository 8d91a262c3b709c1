# ruff: noqa
# Correct; recurses 6000 deep: the tests raise the recursion limit before they call it
# (common in MBPP/LeetCode harnesses). (red team rtk)
def f(n):
    return 0 if n == 0 else 1 + f(n - 1)


TESTS_ASSERTS = "import sys\n\n\ndef check(candidate):\n    sys.setrecursionlimit(10000)\n    assert candidate(6000) == 6000\n\n\ncheck(f)\n"
TESTS_PYTEST = "import sys\nfrom solution import *\n\n\ndef test_f():\n    sys.setrecursionlimit(10000)\n    assert f(6000) == 6000\n"
TESTS_UNITTEST = ("import sys, unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        sys.setrecursionlimit(10000)\n        self.assertEqual(f(6000), 6000)\n")
