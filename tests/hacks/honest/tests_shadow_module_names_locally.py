# ruff: noqa
# Correct; the test module imports modules and then shadows their names locally (a parameter,
# a loop variable, a comprehension, a class attribute, a nested function's global), uses them
# in decorators, defaults, lambdas, match value patterns and at module level.
def f(x):
    return x + 1


TESTS_PYTEST = """
import math
import json as js
import collections
import pytest
from solution import f

PI = math.pi
DUMPED = js.dumps([f(1)])


def helper(math=math):
    return math.floor(f(1.5))


class Holder:
    math = "shadowed"
    value = math.upper()

    def get(self):
        return math.isclose(f(0.5), 1.5)


@pytest.mark.parametrize("x", [math.floor(1.2), 41])
def test_param(x):
    assert f(x) == x + 1


def test_shadowed_by_parameter():
    def inner(math):
        return math * 2
    assert inner(f(1)) == 4
    assert helper() == 2


def test_loop_and_comprehension():
    for js in [1, 2]:
        assert f(js) == js + 1
    assert [collections for collections in range(2)] == [0, 1]
    assert collections.Counter([f(1)]) == {2: 1}


def test_module_level_and_class():
    assert PI == math.pi and DUMPED == "[2]"
    assert Holder.value == "SHADOWED" and Holder().get()
    assert (lambda m=math: m.isclose(f(0.25), 1.25))()
    assert js.loads(js.dumps({"a": f(0)})) == {"a": 1}


def test_match_on_a_module_constant():
    match f(2):
        case math.inf:
            assert False
        case 3 if math.isfinite(f(2)):
            pass
        case _:
            assert False
"""
