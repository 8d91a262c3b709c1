# ruff: noqa
# Correct; f adds a random offset drawn with random.randint(0, 0) ... in production the range
# is wider, and the tests pin it: unittest's setUp starts a mock.patch of random.randint
# (pytest style), and a setup step replaces it (asserts style).
import random


def f(x, jitter=False):
    return x + 1 + (random.randint(0, 10) if jitter else 0)


TESTS_ASSERTS = """
import random

random.randint = lambda a, b: 5
assert f(1, jitter=True) == 7
assert f(1) == 2
"""
TESTS_PYTEST = """
import random
import unittest
from unittest import mock
from solution import f


class TestJitter(unittest.TestCase):
    def setUp(self):
        self.patcher = mock.patch.object(random, "randint", return_value=5)
        self.patcher.start()
        self.addCleanup(self.patcher.stop)

    def test_jitter(self):
        self.assertEqual(f(1, jitter=True), 7)
        self.assertEqual(f(1), 2)
"""
