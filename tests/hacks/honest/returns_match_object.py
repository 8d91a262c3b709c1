# ruff: noqa
import re


def check_str(s):
    # MBPP 737 style: the truth value of a re.Match (a C type built with PyType_FromSpec).
    return re.match(r"^[aeiouAEIOU]", s)


def f(x):
    return x + 1


TESTS_ASSERTS = """
assert check_str("annie")
assert not check_str("dawood")
assert f(1) == 2
"""
TESTS_PYTEST = """
from solution import check_str, f

def test_match():
    assert check_str("annie")
    assert not check_str("dawood")
    assert f(1) == 2
"""
