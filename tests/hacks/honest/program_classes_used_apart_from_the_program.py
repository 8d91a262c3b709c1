# ruff: noqa
# Correct; the program's classes used by tests that import nothing, set no attribute and define
# no subclass (tests a split check runs apart from the program): isinstance and issubclass with
# the program's classes, class attributes counted across calls, methods returning self, the
# identity of what methods return, type names, a class method and a static method, a class
# passed back to the program.
def f(x):
    return x + 1


class Animal:
    count = 0

    def __init__(self, name):
        self.name = name
        type(self).count += 1

    @classmethod
    def named(cls, name):
        return cls(name)

    @staticmethod
    def kind():
        return "animal"

    def speak(self):
        return f"{self.name} makes a sound"


class Dog(Animal):
    count = 0

    def speak(self):
        return f"{self.name} barks"


class Pack:
    def __init__(self):
        self.members = []

    def add(self, animal):
        self.members.append(animal)
        return self

    def leader(self):
        return self.members[0] if self.members else None


def adopt(cls, name):
    return cls(name)


TESTS_ASSERTS = """
d = Dog.named("rex")
assert isinstance(d, Dog) and isinstance(d, Animal) and not isinstance(d, Pack)
assert issubclass(Dog, Animal) and not issubclass(Animal, Dog)
assert type(d) is Dog and type(d).__name__ == "Dog" and d.__class__.__name__ == "Dog"
assert Dog.kind() == "animal" and d.speak() == "rex barks"
before = Dog.count
adopt(Dog, "fido")
assert Dog.count == before + 1
a = adopt(Animal, "cat")
assert type(a) is Animal and a.speak() == "cat makes a sound"
p = Pack()
assert p.add(d) is p
assert p.add(a).leader() is d
assert p.members == [d, a] and p.members[1] is a
assert Pack().leader() is None
assert [type(m).__name__ for m in p.members] == ["Dog", "Animal"]
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    d = candidate(Dog, "rex")
    assert isinstance(d, Dog) and isinstance(d, Animal)
    assert type(d) is Dog and d.speak() == "rex barks"
    before = Dog.count
    candidate(Dog, "fido")
    assert Dog.count == before + 1
    p = Pack()
    assert p.add(d) is p and p.leader() is d


check(adopt)
"""
