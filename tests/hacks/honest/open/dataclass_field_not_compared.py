# ruff: noqa
# Correct: a dataclass whose field(compare=False) (a label, a cache) differs between two
# objects the tests compare. Python's generated __eq__ leaves that field out, so they are
# equal; the grader compares every field's state (open, s15i: which fields count is the
# class's field list or its __eq__'s code, and the program can rewrite both on the tests' own
# dataclass; docs/fidelity.md "kept strict").
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    value: int
    label: str = field(default="", compare=False)
    seen: tuple = field(default=(), compare=False, repr=False)


@dataclass(slots=True)
class Slotted:
    value: int
    note: str = field(default="", compare=False)


def f(x):
    return x + 1


def step(x):
    return Step(f(x), label=f"f({x})", seen=(x,))


def slotted(x):
    return Slotted(f(x), note="made by slotted()")


TESTS_ASSERTS = """
assert f(1) == 2
assert step(1) == Step(2)
assert step(1) != Step(3)
assert [step(4), step(5)] == [Step(5, "five"), Step(6, "six")]
assert slotted(1) == Slotted(2)
assert slotted(1) != Slotted(1, note="made by slotted()")
"""

TESTS_PYTEST = """
from solution import *


def test_compared_fields_only():
    assert f(1) == 2
    assert step(1) == Step(2)
    assert step(1) != Step(3)
    assert slotted(1) == Slotted(2)
    assert slotted(1) != Slotted(1, note="made by slotted()")
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestStep(unittest.TestCase):
    def test_compared_fields_only(self):
        self.assertEqual(step(1), Step(2))
        self.assertNotEqual(step(1), Step(3))
        self.assertEqual(slotted(1), Slotted(2))
        self.assertListEqual([step(4)], [Step(5, "five")])
"""
