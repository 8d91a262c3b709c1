# ruff: noqa
# Correct async code under unittest.IsolatedAsyncioTestCase, `async def test_*` (rty's HONEST
# D): pytest 9 hands an async test method to unittest as it is, not item.obj, so the harness's
# witness was never called and every passing async test was "a pass the harness did not
# witness" (runtime_error, 0). The witness now sits on the instance too (runner.make_recorder).
import asyncio


async def af(x):
    await asyncio.sleep(0)
    return x + 1


def f(x):
    return asyncio.run(af(x))


TESTS_PYTEST = """
import asyncio
import unittest
from solution import *


class TestF(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.base = 1

    async def test_one(self):
        self.assertEqual(await af(self.base), 2)

    async def test_gather(self):
        self.assertEqual(await asyncio.gather(af(1), af(2)), [2, 3])

    def test_sync(self):
        self.assertEqual(asyncio.run(af(-3)), -2)
"""
