# ruff: noqa
# Correct; a HumanEval-preset completion (graded as PROMPT + this file, TEST's check(ENTRY_POINT))
# for a prompt that defines a class: the tests build inputs with it and compare the output with
# an instance of it; the program checks its input with isinstance and returns an instance.
# Open: the tests take the prompt's definitions from the prompt alone (checks/asserts.py
# prompt_helpers, so that a completion cannot redefine what the tests call), which makes the
# tests' Point another class than the program's: isinstance is False in the program, and the
# dataclass's __eq__ (same class only) says NotImplemented both ways. The openai harness runs
# prompt, completion and tests in one namespace: one class.
def midpoint(a, b):
    if not (isinstance(a, Point) and isinstance(b, Point)):
        raise TypeError("points only")
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)


PROMPT = '''
from dataclasses import dataclass


@dataclass
class Point:
    x: float
    y: float


def midpoint(a: Point, b: Point) -> Point:
    """The point halfway between a and b.
    >>> midpoint(Point(0, 0), Point(2, 4))
    Point(x=1.0, y=2.0)
    """
'''
TEST = '''
METADATA = {}


def check(candidate):
    assert candidate(Point(0, 0), Point(2, 4)) == Point(1.0, 2.0)
    assert candidate(Point(1, 1), Point(1, 1)).x == 1.0
'''
ENTRY_POINT = "midpoint"
