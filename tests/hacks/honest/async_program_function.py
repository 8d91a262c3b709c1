# ruff: noqa
# Correct; an async def: the tests run it with asyncio.run (or await it in an
# IsolatedAsyncioTestCase). (red team rtk)
import asyncio


async def f(x):
    await asyncio.sleep(0)
    return x + 1


TESTS_ASSERTS = "import asyncio\n\n\ndef check(candidate):\n    assert asyncio.run(candidate(1)) == 2\n\n\ncheck(f)\n"
TESTS_PYTEST = "import asyncio\nfrom solution import *\n\n\ndef test_f():\n    assert asyncio.run(f(1)) == 2\n"
TESTS_UNITTEST = ("import unittest\nfrom solution import *\n\n\nclass TestF(unittest.IsolatedAsyncioTestCase):\n"
                  "    async def test_f(self):\n        self.assertEqual(await f(1), 2)\n")
