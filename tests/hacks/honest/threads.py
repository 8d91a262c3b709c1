# ruff: noqa
import threading
from concurrent.futures import ThreadPoolExecutor


def f(x):
    lock = threading.Lock()
    box = []

    def work(v):
        with lock:
            box.append(v)
        return v

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(work, range(8)))
    return x + 1 + (len(box) - 8)
