# ruff: noqa
# doctest.testmod() at the program's end, unguarded: doctest's runner calls sys.settrace(None).
import doctest


def f(x):
    """Return x plus one.

    >>> f(1)
    2
    """
    return x + 1


doctest.testmod()
