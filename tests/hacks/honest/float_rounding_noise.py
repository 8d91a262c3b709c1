# ruff: noqa
def f(x):
    # A different but correct summation order: off from x + 1 in the last bits only.
    return sum([x / 3.0] * 3) + 0.1 + 0.2 + 0.7 - 1e-16 if isinstance(x, float) else x + 1
