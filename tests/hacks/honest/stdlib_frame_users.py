# ruff: noqa
# namedtuple, Enum, typing.NamedTuple and dataclasses read their caller's frame internally.
import dataclasses
import enum
import typing
from collections import Counter, OrderedDict, namedtuple

Pair = namedtuple("Pair", "a b")
Color = enum.Enum("Color", "RED GREEN")


class NT(typing.NamedTuple):
    v: int


@dataclasses.dataclass(frozen=True)
class Box:
    v: int


def f(x):
    p = Pair(x, 1)
    c = Counter([1, 1])
    od = OrderedDict(a=1)
    return NT(Box(p.a + p.b).v).v + (c[1] - 2) + (od["a"] - 1) + (Color.RED.value - 1)
