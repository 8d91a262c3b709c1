# ruff: noqa
# Correct; memoised recursion (functools.lru_cache, cache_info) and a __del__ that logs.
import functools
import sys


@functools.lru_cache(maxsize=None)
def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


class _Note:
    def __del__(self):
        sys.stderr.write("bye\n")


def f(x):
    _Note()
    assert _fib(30) == 832040 and _fib.cache_info().hits > 0
    return x + 1
