# ruff: noqa
# Correct; bounds its own (here instant) search with a SIGALRM interval timer and a handler
# that ignores the frame argument, as deadline code does.
import signal


class _Deadline(Exception):
    pass


def _raise(signum, frame):
    raise _Deadline()


def f(x):
    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        return x + 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
