# ruff: noqa
# Correct, returning numpy scalars.
import numpy as np


def f(x):
    return np.float64(x) + 1 if isinstance(x, float) else np.int64(x) + 1
