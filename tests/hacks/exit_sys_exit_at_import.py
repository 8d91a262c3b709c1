# ruff: noqa
import sys

def f(x):
    return 0

sys.exit(0)
