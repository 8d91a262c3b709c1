# ruff: noqa
# Correct; a generator the tests drive with next() and send(), and a context manager class.
def f(x):
    return x + 1


def running_total():
    total = 0
    while True:
        got = yield total
        total += got


class Managed:
    def __init__(self):
        self.state = []

    def __enter__(self):
        self.state.append("in")
        return self

    def __exit__(self, *exc):
        self.state.append("out")
        return False


TESTS_ASSERTS = """
g = running_total()
assert next(g) == 0
assert g.send(f(1)) == 2
assert g.send(f(2)) == 5
m = Managed()
with m as inside:
    assert inside.state == ["in"]
assert m.state == ["in", "out"]
"""
