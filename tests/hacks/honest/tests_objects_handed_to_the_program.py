# ruff: noqa
# Correct; the tests hand the program objects of their own classes and the program uses them by
# duck typing: calls their methods, reads and sets their attributes, sorts them by the tests'
# __lt__, counts them by the tests' __hash__/__eq__, keeps a tests' handler and calls it later,
# passes *args/**kwargs through. The tests then look at their objects (attributes the program
# set, the order it chose, the same objects back). The check() variant's classes are tuple
# subclasses and set no attribute themselves (tests a split check runs apart from the program).
def f(x):
    return x + 1


def total_area(shapes):
    return sum(s.area() for s in shapes)


def mark_visited(nodes):
    for n in nodes:
        n.visited = True
    return [n for n in nodes if n.weight > 1]


def smallest_two(items):
    return sorted(items)[:2]


def count_distinct(items):
    seen = {}
    for it in items:
        seen[it] = seen.get(it, 0) + 1
    return len(seen), max(seen.values())


class Emitter:
    def __init__(self):
        self.handlers = {}

    def on(self, event, handler):
        self.handlers.setdefault(event, []).append(handler)

    def emit(self, event, *args, **kwargs):
        return [h(*args, **kwargs) for h in self.handlers.get(event, [])]


def call_with(fn, *args, **kwargs):
    return fn(*args, **kwargs)


TESTS_ASSERTS = """
class Rect:
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


class Node:
    def __init__(self, weight):
        self.weight = weight
        self.visited = False


class Key:
    def __init__(self, k):
        self.k = k

    def __eq__(self, other):
        return isinstance(other, Key) and self.k == other.k

    def __hash__(self):
        return hash(self.k)

    def __lt__(self, other):
        return self.k < other.k


assert total_area([Rect(2, 3), Rect(1, 1)]) == 7
nodes = [Node(1), Node(2), Node(3)]
heavy = mark_visited(nodes)
assert [n.visited for n in nodes] == [True, True, True]
assert heavy[0] is nodes[1] and heavy[1] is nodes[2]
keys = [Key(3), Key(1), Key(2)]
low = smallest_two(keys)
assert [k.k for k in low] == [1, 2] and low[0] is keys[1]
assert count_distinct([Key(1), Key(1), Key(2)]) == (2, 2)
got = []
em = Emitter()
em.on("x", lambda v, scale=1: got.append(v * scale) or len(got))
em.on("x", lambda v, scale=1: v + scale)
assert em.emit("x", 5, scale=2) == [1, 7]
assert em.emit("y") == []
assert got == [10]
assert call_with(lambda *a, **k: (a, sorted(k)), 1, 2, b=3, a=4) == ((1, 2), ["a", "b"])
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
class Rect(tuple):
    def area(self):
        return self[0] * self[1]


class Node(tuple):
    weight = property(lambda self: self[0])


class Key(tuple):
    def __lt__(self, other):
        return self[0] > other[0]


def check(candidate):
    assert candidate([Rect((2, 3)), Rect((1, 1))]) == 7
    nodes = [Node((1,)), Node((2,))]
    heavy = mark_visited(nodes)
    assert nodes[0].visited and heavy[0] is nodes[1]
    keys = [Key((1,)), Key((3,)), Key((2,))]
    low = smallest_two(keys)
    assert low == [(3,), (2,)] and low[0] is keys[1]
    got = []
    em = Emitter()
    em.on("x", lambda v, scale=1: got.append(v * scale))
    em.emit("x", 5, scale=2)
    assert got == [10]


check(total_area)
"""
