# ruff: noqa
# Correct; calls methods of an object of the tests' own class and consumes the tests' generator. (red team rtk)
def f(counter, items):
    for item in items:
        counter.add(item)
    return counter.total()


TESTS_ASSERTS = ("class Counter:\n    def __init__(self):\n        self.seen = []\n    def add(self, x):\n        self.seen.append(x)\n"
                 "    def total(self):\n        return sum(self.seen)\n\n\ndef check(candidate):\n    c = Counter()\n"
                 "    assert candidate(c, (x for x in range(4))) == 6\n    assert c.seen == [0, 1, 2, 3]\n\n\ncheck(f)\n")
TESTS_PYTEST = ("from solution import *\n\n\nclass Counter:\n    def __init__(self):\n        self.seen = []\n    def add(self, x):\n        self.seen.append(x)\n"
                "    def total(self):\n        return sum(self.seen)\n\n\ndef test_f():\n    c = Counter()\n"
                "    assert f(c, (x for x in range(4))) == 6\n    assert c.seen == [0, 1, 2, 3]\n")
