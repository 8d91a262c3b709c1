# ruff: noqa
class Sneaky(BaseException):
    pass


def f(x):
    raise Sneaky()
