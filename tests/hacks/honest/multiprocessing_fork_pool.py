# ruff: noqa
# Correct, computed in a forked multiprocessing pool.
import multiprocessing


def _inc(v):
    return v + 1


def f(x):
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(_inc, (x,))
