# ruff: noqa
# Correct; the program imports pytest itself (its approx for a float guard, pytest.raises in a
# self-check) in a check whose tests never name pytest: there pytest is a library like any
# other, imported after the program started, and its import reads its own functions' code.
import pytest


def f(x):
    y = x + 1
    assert y == pytest.approx(x + 1)
    with pytest.raises(TypeError):
        "a" + 1
    return y
