# ruff: noqa
# The tests define classes whose methods call zero-argument super() (unittest's everyday
# `super().setUp()`): the fence's rewrite of bare-name calls ran super() in the fence's frame,
# "super(): __class__ cell not found".
def f(x):
    return x + 1


class Base:
    def value(self):
        return 1


TESTS_ASSERTS = """
class Sub(Base):
    def value(self):
        return super().value() + 1


def check(candidate):
    assert Sub().value() == 2
    assert candidate(1) == 2


check(f)
"""
TESTS_PYTEST = """
from solution import *


class Sub(Base):
    def value(self):
        return super().value() + 1


def test_module_class():
    assert Sub().value() == 2
    assert f(1) == 2
"""
TESTS_UNITTEST = """
import unittest
from solution import *


class BaseTest(unittest.TestCase):
    def setUp(self):
        self.x = 1


class TestF(BaseTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.z = 2

    def setUp(self):
        super().setUp()
        self.y = f(self.x)

    def test_f(self):
        self.assertEqual(self.y, self.z)
"""
