# ruff: noqa
# Correct, computed in a thread pool made at import and a worker thread started at import
# (threading's own tables of threads change while the tests import threading too).
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

_POOL = ThreadPoolExecutor(max_workers=2)
_jobs: "queue.Queue" = queue.Queue()


def _worker():
    while True:
        x, out = _jobs.get()
        out.put(x + 1)


threading.Thread(target=_worker, daemon=True, name="adder").start()


def f(x):
    out: "queue.Queue" = queue.Queue()
    _jobs.put((x, out))
    via_thread = out.get(timeout=5)
    via_pool = _POOL.submit(lambda v: v + 1, x).result(timeout=5)
    assert via_thread == via_pool
    assert threading.current_thread().name
    return via_pool


TESTS_ASSERTS = """
import threading
import concurrent.futures
assert f(1) == 2
assert f(41) == 42
assert f(0.25) == 1.25
assert threading.active_count() >= 1
"""
TESTS_PYTEST = """
import threading
import concurrent.futures
from solution import f


def test_f():
    assert f(1) == 2
    assert f(41) == 42
    assert f(0.25) == 1.25
    assert threading.active_count() >= 1
"""
