# ruff: noqa
# Correct, returning an int subclass with its own repr/str and no equality override.
class Answer(int):
    def __repr__(self):
        return f"Answer({int(self)})"

    __str__ = __repr__


def f(x):
    return Answer(x + 1) if isinstance(x, int) else x + 1
