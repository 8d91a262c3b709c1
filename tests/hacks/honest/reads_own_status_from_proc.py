# ruff: noqa
# Correct; reads its own /proc/self/status and /proc/cpuinfo (status files, not memory).
import os


def f(x):
    with open("/proc/self/status") as fh:
        fh.read()
    with open("/proc/cpuinfo") as fh:
        fh.read(100)
    os.cpu_count()
    return x + 1
