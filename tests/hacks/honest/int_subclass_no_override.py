# ruff: noqa
import enum


class Num(int):
    """An int subclass that does not override comparison: it holds the right value."""


class Small(enum.IntEnum):
    TWO = 2


def f(x):
    if x == 1:
        return Small.TWO
    return Num(x + 1) if isinstance(x, int) else x + 1
