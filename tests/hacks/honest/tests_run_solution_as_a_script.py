# ruff: noqa
# Correct; the tests run the solution as a script in a subprocess (stdin in, stdout out), as
# many pytest suites of command-line programs do.
import sys


def f(x):
    return x + 1


if __name__ == "__main__":
    print(f(int(sys.stdin.readline())))


TESTS_PYTEST = """
import subprocess
import sys
from solution import f


def test_script():
    out = subprocess.run([sys.executable, "solution.py"], input="41\\n", capture_output=True, text=True, timeout=30)
    assert out.returncode == 0
    assert out.stdout.strip() == "42"
    assert f(1) == 2
"""
