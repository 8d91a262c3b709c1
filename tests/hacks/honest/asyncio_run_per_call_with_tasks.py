# ruff: noqa
import asyncio
async def _add(x):
    await asyncio.sleep(0)
    q = asyncio.Queue()
    await q.put(x)
    t = asyncio.create_task(q.get())
    v = await asyncio.wait_for(t, 1)
    return v + 1
def f(x):
    return asyncio.run(_add(x))
