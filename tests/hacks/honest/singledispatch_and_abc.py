# ruff: noqa
# Correct; dispatches on the argument's type (functools.singledispatch) through an abstract base
# class hierarchy (abc), registering a virtual subclass.
import abc
import functools
import numbers


class Shape(abc.ABC):
    @abc.abstractmethod
    def size(self): ...


class Unit(Shape):
    def size(self):
        return 1


@functools.singledispatch
def f(x):
    raise TypeError(type(x))


@f.register
def _(x: numbers.Integral):
    return x + 1


@f.register
def _(x: float):
    return x + 1.0


@f.register
def _(x: Shape):
    return x.size() + 1
