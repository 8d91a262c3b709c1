"""A small thread-safe LRU keyed by a text (a test file), bounded by bytes, not entries: one
dataset's tests run to a few hundred bytes, another's to megabytes."""

from __future__ import annotations

import _thread
from collections import OrderedDict
from typing import Any, Callable

_MISSING = object()


class TextCache:
    def __init__(self, max_bytes: int, size_of: Callable[[Any], int] = lambda v: 64):
        self.max_bytes = max_bytes
        self.size_of = size_of
        self._lock = _thread.allocate_lock()  # _thread: see languages._VERSIONS_LOCK
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._bytes = 0

    def get(self, text: str, compute: Callable[[str], Any]) -> Any:
        """The cached value for `text`, computed (outside the lock) on a miss. An exception
        from `compute` propagates and caches nothing."""
        with self._lock:
            hit = self._items.get(text, _MISSING)
            if hit is not _MISSING:
                self._items.move_to_end(text)
                return hit[0]
        value = compute(text)
        cost = len(text) + self.size_of(value)
        if cost > self.max_bytes:
            return value
        with self._lock:
            if text not in self._items:
                self._items[text] = (value, cost)
                self._bytes += cost
                while self._bytes > self.max_bytes:
                    _, (_, old) = self._items.popitem(last=False)
                    self._bytes -= old
        return value

    def peek(self, text: str) -> Any:
        """The value held for `text`, or None; computes nothing."""
        with self._lock:
            hit = self._items.get(text)
            if hit is None:
                return None
            self._items.move_to_end(text)
            return hit[0]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)
