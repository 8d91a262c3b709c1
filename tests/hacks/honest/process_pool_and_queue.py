# ruff: noqa
# Correct; computes through a process pool (concurrent.futures) and a producer/consumer pair of
# threads over a queue.Queue.
import concurrent.futures
import queue
import threading


def _inc(x):
    return x + 1


def f(x):
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        y = pool.submit(_inc, x).result(timeout=20)
    q = queue.Queue()
    out = []
    t = threading.Thread(target=lambda: out.append(q.get()))
    t.start()
    q.put(y)
    t.join()
    return out[0]
