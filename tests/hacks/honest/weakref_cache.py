# ruff: noqa
# Correct, with a WeakValueDictionary cache and weakref.finalize of its own objects.
import weakref


class _Box:
    def __init__(self, v):
        self.v = v


_cache = weakref.WeakValueDictionary()
_closed = []


def f(x):
    box = _cache.get(x)
    if box is None:
        box = _Box(x + 1)
        _cache[x] = box
        weakref.finalize(box, _closed.append, x)
    return box.v
