# ruff: noqa
import os
import tempfile


def f(x):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "value.txt")
        with open(path, "w") as fh:
            fh.write(repr(x + 1))
        with open(path) as fh:
            return type(x)(eval(fh.read()))
