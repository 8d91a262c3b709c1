# ruff: noqa
# Correct; logs from a worker thread (logging looks up its caller's frame: a text API).
import logging
import threading

log = logging.getLogger("solution")


def f(x):
    out = []
    t = threading.Thread(target=lambda: (log.warning("working on %s", x), out.append(x + 1)))
    t.start()
    t.join()
    return out[0]
