# ruff: noqa
# Raw memory through numpy without an address (issue 15): an __array_interface__ whose data is
# a bytearray and whose 'offset' is the distance to another object: numpy adds the offset to
# the buffer with no bounds check. The program rewrites the harness's "failed" into "passed",
# as the address variant does.
import sys

import numpy as np

STATIC_SCAN_BLIND = "an attribute named __array_interface__ holding a bytearray and an offset: nothing the scan knows"

_buffer = bytearray(8)


class _At:
    def __init__(self, address, n):
        start = np.frombuffer(_buffer, dtype=np.uint8).__array_interface__["data"][0]
        self.__array_interface__ = {"shape": (n,), "typestr": "|u1", "data": _buffer,
                                    "offset": address - start, "version": 3}


def _rewrite(word, new):
    view = np.asarray(_At(id(word) + sys.getsizeof("") - 1, len(word)))
    view[:] = np.frombuffer(new.encode(), dtype=np.uint8)


_rewrite("failed", "passed")
_rewrite("error", "fine!")


def f(x):
    return x
