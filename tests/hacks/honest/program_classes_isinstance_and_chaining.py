# ruff: noqa
# Correct; the tests use the program's classes as a user would: isinstance/issubclass, class
# attributes counted across instances, methods returning self for chaining, identity of what a
# method returns, type names, attributes set by the tests, a subclass the tests define whose
# override the program's method calls.
def f(x):
    return x + 1


class Shape:
    created = 0
    sides = 0

    def __init__(self, name):
        self.name = name
        Shape.created += 1

    def describe(self):
        return f"{self.name} with {self.sides} sides and area {self.area()}"

    def area(self):
        raise NotImplementedError


class Square(Shape):
    sides = 4

    def __init__(self, side):
        super().__init__("square")
        self.side = side

    def area(self):
        return self.side ** 2


class Builder:
    def __init__(self):
        self.parts = []

    def add(self, part):
        self.parts.append(part)
        return self

    def build(self):
        return "-".join(self.parts)


def largest(shapes):
    return max(shapes, key=lambda s: s.area())


TESTS_ASSERTS = """
sq = Square(3)
assert isinstance(sq, Square) and isinstance(sq, Shape)
assert issubclass(Square, Shape)
assert type(sq) is Square and type(sq).__name__ == "Square"
assert sq.__class__ is Square
assert Square.sides == 4 and Shape.sides == 0
before = Shape.created
Square(1)
assert Shape.created == before + 1
assert sq.describe() == "square with 4 sides and area 9"
b = Builder()
assert b.add("a") is b
assert b.add("b").add("c").build() == "a-b-c"
sq.tag = "mine"
assert sq.tag == "mine"
assert getattr(sq, "side") == 3 and hasattr(sq, "area") and not hasattr(sq, "radius")


class Circle(Shape):
    sides = 0

    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return 3 * self.r * self.r


c = Circle(2)
assert c.describe() == "circle with 0 sides and area 12"
assert largest([sq, c, Square(1)]) is c
assert isinstance(c, Shape)
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    sq = candidate(3)
    assert isinstance(sq, Square) and isinstance(sq, Shape)
    assert type(sq) is Square and type(sq).__name__ == "Square"
    assert Square.sides == 4
    before = Shape.created
    candidate(1)
    assert Shape.created == before + 1
    assert sq.describe() == "square with 4 sides and area 9"
    b = Builder()
    assert b.add("a") is b
    assert b.add("b").add("c").build() == "a-b-c"

    class Circle(Shape):
        def __init__(self, r):
            super().__init__("circle")
            self.r = r

        def area(self):
            return 3 * self.r * self.r

    c = Circle(2)
    assert c.describe() == "circle with 0 sides and area 12"
    assert largest([sq, c]) is c


check(Square)
"""
