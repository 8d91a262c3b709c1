# ruff: noqa
# Correct; returns bytes, which the tests match with assertRegex and a bytes pattern (unittest
# passes them to re.search as they are).
def f(x):
    return x + 1


def encode(x):
    return str(f(x)).encode()


TESTS_PYTEST = """
import unittest
from solution import encode, f


class TestEncode(unittest.TestCase):
    def test_bytes(self):
        self.assertEqual(f(1), 2)
        self.assertRegex(encode(41), rb"^42$")
"""
