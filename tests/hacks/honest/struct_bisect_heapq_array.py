# ruff: noqa
# Correct; round-trips through struct packing, keeps a sorted table with bisect and a heap, and an
# array.array of doubles.
import array
import bisect
import heapq
import struct

_table = []


def f(x):
    fmt = "<q" if isinstance(x, int) else "<d"
    (v,) = struct.unpack(fmt, struct.pack(fmt, x))
    bisect.insort(_table, v)
    h = [v + 1]
    heapq.heapify(h)
    arr = array.array("d", [float(h[0])])
    return int(arr[0]) if isinstance(x, int) else arr[0]
