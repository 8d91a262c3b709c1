# ruff: noqa
import threading, time
def _bg():
    time.sleep(0.3)
threading.Thread(target=_bg).start()
def f(x):
    t = threading.Thread(target=time.sleep, args=(0.2,))
    t.start()
    return x + 1
