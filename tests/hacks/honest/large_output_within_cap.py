# ruff: noqa
import sys
sys.stdout.write(("x" * 99 + "\n") * 6000)
sys.stderr.write(("y" * 99 + "\n") * 2000)
def f(x):
    return x + 1
