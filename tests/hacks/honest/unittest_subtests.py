# ruff: noqa
# Correct; the tests loop over cases inside self.subTest (unittest's idiom for tables).
def f(x):
    return x + 1


TESTS_PYTEST = """
import unittest
from solution import f


class TestTable(unittest.TestCase):
    def test_table(self):
        for x, y in [(1, 2), (41, 42), (-3, -2)]:
            with self.subTest(x=x):
                self.assertEqual(f(x), y)
"""
