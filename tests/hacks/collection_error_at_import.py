# ruff: noqa
raise ImportError("broken on purpose: a collection error is not 'no failures'")


def f(x):
    return x + 1
