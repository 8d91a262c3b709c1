# ruff: noqa
# Correct; the pytest tests join pytest's tmp_path (a pathlib.Path) with a file name through
# os.path.join, as much test code does.
import os


def f(x, path=None):
    if path is not None:
        with open(path, "w") as fh:
            fh.write(str(x + 1))
    return x + 1


TESTS_ASSERTS = """
import os
import tempfile
import pathlib

d = pathlib.Path(tempfile.mkdtemp())
p = os.path.join(d, "out.txt")
assert f(1, p) == 2
assert open(p).read() == "2"
"""
TESTS_PYTEST = """
import os
from solution import f


def test_writes(tmp_path):
    out = os.path.join(tmp_path, "out.txt")
    assert f(41, out) == 42
    with open(out) as fh:
        assert fh.read() == "42"
"""
