# ruff: noqa
# Correct: runs a helper through `python3` found on PATH, as scripts do. A check's PATH is
# /usr/local/bin:/usr/bin:/bin and its environment's bin holds only `python` (sys.executable,
# /env/bin/python): FileNotFoundError (open, s15i; the root and PATH are the sandbox's,
# issue 16: a `python3` beside `python` in the environment's bin, first on PATH, would do).
# Other host commands (`sort`, `sh`) are absent by design: the root is allowlisted.
import subprocess


def f(x):
    out = subprocess.run(["python3", "-c", f"print({x} + 1)"], capture_output=True, text=True, check=True)
    return int(out.stdout)


TESTS_ASSERTS = """
def check(candidate):
    assert candidate(1) == 2
    assert candidate(-3) == -2


check(f)
"""

TESTS_PYTEST = """
from solution import *


def test_f():
    assert f(1) == 2
"""
