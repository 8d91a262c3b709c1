# ruff: noqa
# Correct. A metaclass keeps a registry of the classes made with it, an ABC of the library's
# has a class of the program's registered (abc keeps that in its own C state), __init_subclass__
# and __class_getitem__: the tests check through numbers and collections.abc.
import numbers
import collections.abc


class Registry(type):
    made = {}

    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        mcls.made[name] = cls
        return cls


class Base(metaclass=Registry):
    kinds = []

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Base.kinds.append(cls.__name__)

    def __class_getitem__(cls, item):
        return cls


class Adder(Base):
    def __call__(self, x):
        return x + 1


class Bag:
    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __contains__(self, x):
        return x in self.items


collections.abc.Collection.register(Bag)


def f(x):
    assert Registry.made["Adder"] is Adder and Base.kinds == ["Adder"]
    assert isinstance(Bag([x]), collections.abc.Collection)
    return Base[int] and Adder()(x)


TESTS_ASSERTS = """
import numbers
import collections.abc
assert f(1) == 2
assert isinstance(f(41), numbers.Integral)
assert f(0.5) == 1.5
assert not isinstance(f(1), collections.abc.Collection)
"""
TESTS_PYTEST = """
import numbers
import collections.abc
from solution import f


def test_f():
    assert f(1) == 2
    assert isinstance(f(41), numbers.Integral)
    assert f(0.5) == 1.5
"""
