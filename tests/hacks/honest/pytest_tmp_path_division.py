# ruff: noqa
# Correct; the pytest tests build a file path with `tmp_path / "name"` (pathlib's own `/`) and
# have f write its answer there; the asserts-style tests use os.path with a temp folder.
def f(x, path=None):
    if path is not None:
        with open(path, "w") as fh:
            fh.write(str(x + 1))
    return x + 1


TESTS_ASSERTS = """
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "out.txt")
assert f(1, p) == 2
assert open(p).read() == "2"
"""
TESTS_PYTEST = """
from solution import f


def test_writes(tmp_path):
    out = tmp_path / "out.txt"
    assert f(41, out) == 42
    assert out.read_text() == "42"
"""
