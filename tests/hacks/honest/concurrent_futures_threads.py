# ruff: noqa
# Correct, computed in a ThreadPoolExecutor.
from concurrent.futures import ThreadPoolExecutor


def f(x):
    with ThreadPoolExecutor(max_workers=2) as ex:
        return ex.submit(lambda v: v + 1, x).result()
