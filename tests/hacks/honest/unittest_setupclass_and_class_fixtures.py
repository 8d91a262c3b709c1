# ruff: noqa
# Correct; ClassEval-like tests with setUpClass/tearDownClass, setUp building the program's
# object, addCleanup, subTest and assertRaises as a context manager.
class Counter:
    def __init__(self, start=0):
        self.n = start

    def add(self, k):
        if k < 0:
            raise ValueError("negative")
        self.n += k
        return self.n


def f(x):
    return x + 1


TESTS_PYTEST = """
import unittest
from solution import *


class TestCounter(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = f(9)

    @classmethod
    def tearDownClass(cls):
        cls.base = None

    def setUp(self):
        self.c = Counter(self.base)
        self.addCleanup(setattr, self, "c", None)

    def test_add(self):
        for k, want in [(1, 11), (2, 13)]:
            with self.subTest(k=k):
                self.assertEqual(self.c.add(k), want)

    def test_negative(self):
        with self.assertRaises(ValueError) as ctx:
            self.c.add(-1)
        self.assertIn("negative", str(ctx.exception))
        self.assertEqual(self.c.n, 10)
"""
