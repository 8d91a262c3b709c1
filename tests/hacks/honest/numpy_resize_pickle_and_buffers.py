# ruff: noqa
# numpy's resize, pickling and buffers as honest code uses them (issue 15: _arrays.c seals
# ndarray.resize, __setstate__ and base): resize with numpy's own reference check (and with
# refcheck=False where nothing else holds the array), arrays over a bytearray and a memoryview
# (reading .base, the memoryview released by its own `with`), and a round trip through pickle.
import pickle

import numpy as np


def f(x):
    a = np.zeros(2)
    a.resize(4)
    b = np.arange(3.0)
    b.resize((2, 2), refcheck=False)
    raw = bytearray(b"\x01\x02\x03")
    over = np.frombuffer(raw, dtype=np.uint8)
    assert over.base is not None and over.sum() == 6
    with memoryview(b"\x04\x05") as m:
        assert int(np.asarray(m).sum()) == 9
    back = pickle.loads(pickle.dumps([np.arange(2.0), np.ones(2)]))
    total = a.sum() + b.sum() - 3 + over.sum() - 6 + back[0][1] + back[1][0] - 2
    return x + 1 + total
