# ruff: noqa
# Correct, with typing's Protocol, Generic, TypedDict and get_type_hints.
from typing import Generic, Protocol, TypedDict, TypeVar, get_type_hints

T = TypeVar("T")


class Box(Generic[T]):
    def __init__(self, v: T) -> None:
        self.v = v


class HasInc(Protocol):
    def inc(self, x: int) -> int: ...


class Conf(TypedDict):
    step: int


def f(x: int) -> int:
    get_type_hints(f)
    return Box(x).v + Conf(step=1)["step"]
