# ruff: noqa
# Correct, through frozen, ordered dataclasses with slots (dataclasses compiles their methods
# with exec).
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, order=True, slots=True)
class P:
    x: int
    tags: tuple = field(default=())


def f(x):
    return replace(P(x), x=x + 1).x
