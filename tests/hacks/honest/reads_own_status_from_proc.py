# ruff: noqa
# Correct; reads its own /proc/self/status (a status file, not memory). A check's /proc holds
# its own processes only (subset=pid: no /proc/cpuinfo, meminfo or stat of the host).
import os


def f(x):
    with open("/proc/self/status") as fh:
        fh.read()
    os.cpu_count()
    return x + 1
