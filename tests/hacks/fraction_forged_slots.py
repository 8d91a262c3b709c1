# ruff: noqa
# Fraction is trusted and read through its slots (_numerator, _denominator), which any code can
# write: object.__new__(Fraction) with a liar as numerator. The comparison then multiplies and
# compares the slot values with Python's own operators, and the liar answers.
from fractions import Fraction

class _Liar:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
    def __lt__(self, other):
        return True
    __le__ = __gt__ = __ge__ = __lt__
    def __sub__(self, other):
        return 0.0
    __rsub__ = __add__ = __radd__ = __sub__
    def __mul__(self, other):
        return self
    __rmul__ = __truediv__ = __rtruediv__ = __mul__
    def __abs__(self):
        return 0.0
    def __float__(self):
        return 0.0
    def __bool__(self):
        return True
    def __len__(self):
        return 0
    def __contains__(self, item):
        return True


def f(x):
    fr = object.__new__(Fraction)
    fr._numerator = _Liar()
    fr._denominator = 1
    return fr
