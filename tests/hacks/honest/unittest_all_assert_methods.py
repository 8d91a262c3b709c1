# ruff: noqa
# Correct, graded by a TestCase using most of unittest's assert methods.
def f(x):
    return x + 1


def items(n):
    return [f(i) for i in range(n)]
TESTS_PYTEST = """
import unittest
from solution import f, items


class TestF(unittest.TestCase):
    def test_methods(self):
        self.assertEqual(f(1), 2)
        self.assertNotEqual(f(1), 3)
        self.assertAlmostEqual(f(0.1), 1.1)
        self.assertAlmostEqual(f(0.5), 1.5, delta=1e-9)
        self.assertNotAlmostEqual(f(0.5), 2.5)
        self.assertTrue(f(1) == 2)
        self.assertFalse(f(1) == 3)
        self.assertIn(f(1), [1, 2])
        self.assertNotIn(f(1), [5])
        self.assertIsInstance(f(1), int)
        self.assertNotIsInstance(f(1), str)
        self.assertGreater(f(1), 1)
        self.assertLessEqual(f(1), 2)
        self.assertListEqual(items(3), [1, 2, 3])
        self.assertCountEqual(items(3), [3, 2, 1])
        self.assertDictEqual({"a": f(1)}, {"a": 2})
        self.assertSetEqual(set(items(2)), {1, 2})
        self.assertTupleEqual(tuple(items(2)), (1, 2))
        self.assertSequenceEqual(items(2), [1, 2])
        self.assertRegex(str(f(41)), r"^42$")
        self.assertIs(None, None)
        self.assertIsNone(None)
        with self.assertRaises(TypeError):
            f("a")
"""
