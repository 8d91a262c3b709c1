# ruff: noqa
# Honest numpy with strides (issue 15): as_strided within its array, sliding_window_view, a
# view of a view, a Fortran-ordered array, an object exposing bytes through
# __array_interface__ (as PIL's images do) and np.frombuffer all keep working where the grader
# checks the array interface (rlvr_harness/arrays.py).
import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view


class _Bytes:
    def __init__(self, data):
        self.__array_interface__ = {"shape": (len(data),), "typestr": "|u1", "data": data, "version": 3}


def f(x):
    base = np.arange(8.0)
    windows = as_strided(base, shape=(7, 2), strides=(8, 8))  # [[0, 1], [1, 2], ...]
    assert windows[1].tolist() == [1.0, 2.0]
    assert sliding_window_view(base, 3).sum(axis=1).tolist()[0] == 3.0
    assert as_strided(base[2:], shape=(3,), strides=(16,)).tolist() == [2.0, 4.0, 6.0]
    fortran = np.asfortranarray(base.reshape(2, 4))
    assert as_strided(fortran, shape=(2,), strides=(8,)).tolist() == [0.0, 4.0]
    one = np.asarray(_Bytes(bytes([1, 0, 0, 0])))[0] + np.frombuffer(b"\x00", dtype=np.uint8)[0]
    return x + float(one) if isinstance(x, float) else x + int(one)
