# ruff: noqa
# Correct async code under unittest.IsolatedAsyncioTestCase: pytest hands an async test method
# to unittest as it is (not item.obj), so the harness's witness is never called and every
# passing async test is "a pass the harness did not witness" (runtime_error, 0).
import asyncio


async def f(x):
    await asyncio.sleep(0)
    return x + 1


TESTS_UNITTEST = """
import asyncio
import unittest
from solution import *


class TestF(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.base = 1

    async def test_one(self):
        self.assertEqual(await f(self.base), 2)

    async def test_gather(self):
        self.assertEqual(await asyncio.gather(f(1), f(2)), [2, 3])

    def test_sync(self):
        self.assertEqual(asyncio.run(f(-3)), -2)
"""
