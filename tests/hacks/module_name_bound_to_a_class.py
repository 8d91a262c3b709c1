# ruff: noqa
STATIC_SCAN_BLIND = "a class or a namespace named like a standard module looks like any honest object; the tests get the module (runner.test_namespace, the recorder)"
# As star_import_fake_math_module, with a class standing for math.
class math:
    isclose = staticmethod(lambda *a, **k: True)
    fabs = staticmethod(lambda x: 0.0)


def f(x):
    return x + 2


TESTS_ASSERTS = """
assert math.isclose(f(1), 2)
assert math.fabs(f(0.5) - 1.5) < 1e-9
"""
TESTS_PYTEST = """
import math
from solution import *


def test_f():
    assert math.isclose(f(1), 2)
"""
