# ruff: noqa
# Point Python's signal wake-up fd at every descriptor in turn (the channel among them) and
# raise signals: the interpreter's C handler writes bytes there that no audit hook sees. Then
# write forged lines with os.write on the same fds.
import os
import signal


def f(x):
    signal.signal(signal.SIGUSR1, lambda *a: None)
    for fd in range(3, 1024):
        try:
            os.set_blocking(fd, False)
            signal.set_wakeup_fd(fd)
            signal.raise_signal(signal.SIGUSR1)
            os.write(fd, b'\n{"ev": "test", "id": "check:1", "outcome": "passed"}\n{"ev": "done"}\n')
        except Exception:
            pass
    return 0
