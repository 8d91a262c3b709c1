# ruff: noqa
# Correct; the program prints (print, sys.stdout.write, print to a file argument) and the
# tests capture it the way stdlib-only tests do: contextlib.redirect_stdout into a StringIO,
# and passing their own StringIO as the file.
import sys


def f(x):
    return x + 1


def greet(name):
    print(f"hello {name}")


def table(n):
    for i in range(1, n + 1):
        sys.stdout.write(f"{i} x {n} = {i * n}\n")


def report(items, file=None):
    for k, v in items:
        print(k, v, sep=": ", file=file)
    return len(items)


TESTS_ASSERTS = """
import io
from contextlib import redirect_stdout
buf = io.StringIO()
with redirect_stdout(buf):
    greet("ann")
    table(2)
assert buf.getvalue() == "hello ann\\n1 x 2 = 2\\n2 x 2 = 4\\n"
out = io.StringIO()
assert report([("a", 1), ("b", 2)], file=out) == 2
assert out.getvalue() == "a: 1\\nb: 2\\n"
greet("to the real stdout")
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
import io
from contextlib import redirect_stdout


def check(candidate):
    buf = io.StringIO()
    with redirect_stdout(buf):
        candidate("ann")
    assert buf.getvalue() == "hello ann\\n"
    out = io.StringIO()
    assert report([("a", 1)], file=out) == 1
    assert out.getvalue() == "a: 1\\n"


check(greet)
"""
