# ruff: noqa
# Correct; the tests write a data file beside their own file (ClassEval's tests do) and the
# candidate reads it. The test file itself stays unmodifiable; the folder is not.
import os


def f(x):
    return x + 1


def read_first_line(path):
    with open(path) as fh:
        return fh.readline().strip()


TESTS_PYTEST = """
import os
from solution import f, read_first_line


def test_file_beside_the_tests():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data.txt")
    with open(path, "w") as fh:
        fh.write("42\\n")
    assert read_first_line(path) == "42"
    assert f(41) == 42
"""
