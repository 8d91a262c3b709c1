# ruff: noqa
# Correct; returns a dataclass, and the tests derive a variant with dataclasses.replace.
import dataclasses


@dataclasses.dataclass(frozen=True)
class Step:
    value: int
    note: str = ""


def f(x):
    return x + 1


def step(x):
    return Step(f(x))


TESTS_ASSERTS = """
import dataclasses
s = step(1)
assert s.value == 2
assert dataclasses.replace(s, note="x").note == "x"
"""
TESTS_PYTEST = """
import dataclasses
from solution import step


def test_replace():
    s = step(41)
    assert s.value == 42
    assert dataclasses.replace(s, note="x") == dataclasses.replace(step(41), note="x")
"""
