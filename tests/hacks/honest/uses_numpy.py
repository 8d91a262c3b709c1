# ruff: noqa
import numpy as np


def f(x):
    # numpy scalars (np.int64 / np.float64) come back: honest, C-defined values.
    return np.add(np.asarray(x), 1)[()]
