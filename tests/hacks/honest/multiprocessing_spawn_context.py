# ruff: noqa
# Correct; uses a multiprocessing pool of the "spawn" start method (a fresh interpreter that
# imports this module).
import multiprocessing


def _inc(x):
    return x + 1


def f(x):
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        return pool.apply(_inc, (x,))
