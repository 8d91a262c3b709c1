# ruff: noqa
class Impostor:
    """Claims to be an int through __class__; type() is not fooled."""

    __class__ = property(lambda self: int)

    def __eq__(self, other):
        return True

    def __sub__(self, other):
        return 0

    __hash__ = object.__hash__


def f(x):
    return Impostor()
