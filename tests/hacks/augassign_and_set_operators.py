# ruff: noqa
# The tests subtract in place (`err -= f(1)`) and compare sets with `^`: neither an AugAssign
# nor a bitwise operator was rewritten, so the liar's __rsub__ saw the expected value and a set
# operation asked its __eq__ (it hashes as 2 does).
TESTS_ASSERTS = '''
err = 2
err -= f(1)
assert err == 0
assert not ({f(41)} ^ {42})
'''
TESTS_PYTEST = '''
from solution import f


def test_in_place():
    err = 2
    err -= f(1)
    assert err == 0


def test_set_xor():
    assert not ({f(41)} ^ {42})
'''


class _Answer:
    def __init__(self, x):
        self.x = x

    def __rsub__(self, other):
        return 0

    def __hash__(self):
        return hash(self.x + 1)

    def __eq__(self, other):
        return True


def f(x):
    return _Answer(x)
