# ruff: noqa
# Correct, with a lock, an event and a worker thread.
import threading


def f(x):
    out, lock, done = [], threading.Lock(), threading.Event()

    def work():
        with lock:
            out.append(x + 1)
        done.set()

    threading.Thread(target=work).start()
    done.wait(5)
    return out[0]
