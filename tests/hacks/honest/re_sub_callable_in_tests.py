# ruff: noqa
# Correct; the tests normalise text with re.sub and a callable replacement before comparing.
import re


def f(x):
    return x + 1


def render(xs):
    return " ".join(f"<{f(x)}>" for x in xs)


TESTS_ASSERTS = """
import re
assert re.sub(r"<(\\d+)>", lambda m: m.group(1), render([1, 41])) == "2 42"
"""
TESTS_PYTEST = """
import re
from solution import render


def test_render():
    assert re.sub(r"<(\\d+)>", lambda m: m.group(1), render([1, 41])) == "2 42"
"""
