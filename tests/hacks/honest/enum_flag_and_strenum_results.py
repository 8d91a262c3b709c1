# ruff: noqa
# Correct; answers are members of an IntEnum / IntFlag, compared with plain ints by the tests
# (an IntEnum is an int).
import enum


class Small(enum.IntEnum):
    TWO = 2
    FORTY_TWO = 42


def f(x):
    if x == 1:
        return Small.TWO
    if x == 41:
        return Small.FORTY_TWO
    return x + 1
