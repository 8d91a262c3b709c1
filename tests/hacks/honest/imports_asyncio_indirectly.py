# ruff: noqa
# Correct; imports a module that imports asyncio (as ClassEval references do through their
# dependencies).
import unittest.async_case  # imports asyncio


def f(x):
    return x + 1
