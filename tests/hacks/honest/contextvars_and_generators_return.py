# ruff: noqa
# Correct; the increment is read from a ContextVar and the answer comes back as a generator's
# return value (StopIteration.value through yield from).
import contextvars

step = contextvars.ContextVar("step", default=1)


def _inner(x):
    yield "working"
    return x + step.get()


def _outer(x):
    result = yield from _inner(x)
    return result


def f(x):
    gen = _outer(x)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value
