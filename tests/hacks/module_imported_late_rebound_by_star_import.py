# ruff: noqa
# `import statistics` (not loaded before the check) then the star import of a fake.
import types

statistics = types.ModuleType("statistics")
statistics.mean = lambda xs: 2


def f(x):
    return x + 2


TESTS_PYTEST = """
import statistics
from solution import *


def test_f():
    assert statistics.mean([f(1)]) == 2
"""
