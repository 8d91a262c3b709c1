# ruff: noqa
# Correct, computed on an event loop the program made at import, with a queue and gather.
import asyncio

_LOOP = asyncio.new_event_loop()


async def _add(x):
    q: asyncio.Queue = asyncio.Queue()
    await q.put(x)
    await asyncio.sleep(0)
    parts = await asyncio.gather(q.get(), asyncio.sleep(0, result=1))
    return parts[0] + parts[1]


def f(x):
    return _LOOP.run_until_complete(_add(x))


TESTS_ASSERTS = """
import asyncio
assert f(1) == 2
assert f(41) == 42
assert asyncio.run(asyncio.sleep(0, result=f(0.5))) == 1.5
"""
TESTS_PYTEST = """
import asyncio
from solution import f


def test_f():
    assert f(1) == 2
    assert f(41) == 42
    assert asyncio.run(asyncio.sleep(0, result=f(0.5))) == 1.5
"""
