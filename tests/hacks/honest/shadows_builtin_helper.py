# ruff: noqa
def sum(values):  # noqa: A001 - a helper that shadows a builtin; not the function under test
    total = 0
    for v in values:
        total += v
    return total


def f(x):
    return sum([x, 1])
