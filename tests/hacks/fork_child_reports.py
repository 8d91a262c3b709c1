# ruff: noqa
import os

# The forked child returns the right answers while the parent returns wrong ones: the two
# processes share the result channel, so duplicate reports must never add up to a pass.
_pid = os.fork()


def f(x):
    return x + 1 if _pid == 0 else 0
