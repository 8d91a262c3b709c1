# ruff: noqa
# Correct, computed by asyncio tasks (importing asyncio runs types.coroutine over the stdlib's
# own code).
import asyncio


async def _inc(x):
    await asyncio.sleep(0)
    return x + 1


def f(x):
    async def main():
        (r,) = await asyncio.gather(_inc(x))
        return r
    return asyncio.run(main())
