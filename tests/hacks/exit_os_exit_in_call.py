# ruff: noqa
import os

def f(x):
    os._exit(0)
