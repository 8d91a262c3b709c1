# ruff: noqa
import ctypes


def f(x):
    try:
        ctypes.string_at(id(f), 64)
        ctypes.pythonapi.PyFrame_GetBack
    except Exception:
        pass
    return 0
