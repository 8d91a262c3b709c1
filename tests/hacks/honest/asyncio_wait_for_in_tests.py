# ruff: noqa
# Correct async code; the tests bound each await with asyncio.wait_for(coro, timeout), the usual
# way to keep an async test from hanging.
import asyncio


async def af(x):
    await asyncio.sleep(0)
    return x + 1


def f(x):
    return asyncio.run(af(x))


TESTS_ASSERTS = """
import asyncio
assert f(1) == 2
assert asyncio.run(asyncio.wait_for(af(41), timeout=5)) == 42
"""
TESTS_PYTEST = """
import asyncio
from solution import af, f


def test_async():
    assert f(1) == 2
    assert asyncio.run(asyncio.wait_for(af(41), timeout=5)) == 42
"""
