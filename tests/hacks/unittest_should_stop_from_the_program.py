# ruff: noqa
# unittest's _Outcome.testPartExecutor swallows unittest.case._ShouldStop (`except _ShouldStop: pass`)
# and leaves the test's success flag as it was: a test whose call raises it ends as a success
# (red team rtk; closed: the harness witnesses no pass, and the other styles see an error).
import unittest.case


def f(x):
    raise unittest.case._ShouldStop()


# `python -m unittest` itself reports this test as passed (a reference grader would score it 1).
TESTS_UNITTEST = ("import unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        self.assertEqual(f(1), 2)\n        self.assertEqual(f(-3), -2)\n")
