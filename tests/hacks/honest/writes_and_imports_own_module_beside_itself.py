# ruff: noqa
# Correct. Writes a helper module beside itself at import, puts its folder on sys.path and
# imports it lazily inside f (after the tests start), and writes a data file beside the tests.
import os
import sys
import tempfile

_DIR = tempfile.mkdtemp(prefix="own_")
with open(os.path.join(_DIR, "own_helper_mod.py"), "w") as fh:
    fh.write("def inc(x):\n    return x + 1\n")
sys.path.append(_DIR)


def f(x):
    import own_helper_mod

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "f_log.txt"), "a") as log:
        log.write(f"{x}\n")
    return own_helper_mod.inc(x)


TESTS_ASSERTS = """
import os
import sys
assert f(1) == 2
assert f(41) == 42
assert f(0.25) == 1.25
"""
TESTS_PYTEST = """
import os
import sys
from solution import f


def test_f():
    assert f(1) == 2
    assert f(41) == 42
    assert f(0.25) == 1.25
"""
