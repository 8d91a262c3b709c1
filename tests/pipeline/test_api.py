"""The Python API a training loop uses: one warm pool reused across calls, from several
threads at once and from asyncio, results in input order."""

from __future__ import annotations

import asyncio
import os
import threading

import pyarrow as pa
import pytest

from rlvr_grade.api import Grader, make_options

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the isolated local sandbox needs root")


def zygotes() -> set[int]:
    """Pids of this process's sandbox workers, read from /proc (not from the backend's internals):
    started by us, or forked by a seed we started (the seed itself is not a worker). Known by
    their process names (a seed's command line is scrubbed: zygote.scrub_command_line)."""
    me = os.getpid()
    procs = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/comm") as fh:
                comm = fh.read().strip()
        except (OSError, IndexError, ValueError):
            continue
        if comm.startswith(("rlvr-seed", "rlvr-slot")):
            procs[int(entry)] = (ppid, comm.startswith("rlvr-seed"))
    seeds = {pid for pid, (ppid, seed) in procs.items() if seed and ppid == me}
    return {pid for pid, (ppid, _) in procs.items() if pid not in seeds and (ppid == me or ppid in seeds)}


def rows_for(k: int, n: int = 12) -> tuple[list[dict], list[str]]:
    """n rows whose pass/fail pattern depends on k, so a mixed-up order is visible."""
    rows, want = [], []
    for i in range(n):
        ok = (i * 7 + k) % 3 != 0
        rows.append({"completion": f"def f():\n    return {i if ok else -1}\n", "tests": f"assert f() == {i}\n", "k": k})
        want.append("pass" if ok else "fail")
    return rows, want


def test_concurrent_threads_get_their_own_results_in_order_on_one_warm_pool():
    before = zygotes()
    grader = Grader(concurrency=2, timeout=5)
    # Started from a thread that then exits: the workers must survive it.
    t = threading.Thread(target=grader.start)
    t.start()
    t.join()
    try:
        pool = zygotes() - before
        assert len(pool) == 2
        results: dict[int, list[str]] = {}
        errors: list[BaseException] = []

        def work(k: int) -> None:
            try:
                rows, _ = rows_for(k)
                results[k] = [o.status for o in grader.grade(rows)]
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert not errors
        for k in range(4):
            assert results[k] == rows_for(k)[1], k
        # A second round of calls: same workers, no restart.
        assert [o.status for o in grader.grade(rows_for(9)[0])] == rows_for(9)[1]
        assert zygotes() - before == pool
    finally:
        grader.close()
    assert not (zygotes() & pool)  # close() leaves no worker behind


def test_agrade_does_not_block_the_event_loop_and_keeps_order():
    rows, want = rows_for(5, n=8)
    ticks = []

    async def ticker():
        while True:
            ticks.append(1)
            await asyncio.sleep(0.005)

    async def main(grader):
        t = asyncio.ensure_future(ticker())
        a, b = await asyncio.gather(grader.agrade(rows), grader.agrade(rows[::-1]))
        t.cancel()
        return a, b

    with Grader(concurrency=2) as grader:
        a, b = asyncio.run(main(grader))
    assert [o.status for o in a] == want
    assert [o.status for o in b] == want[::-1]
    assert len(ticks) >= 2


def test_pyarrow_table_and_bad_rows():
    table = pa.Table.from_pylist([
        {"completion": "x = 1", "tests": "assert x == 1"},
        {"completion": None, "tests": "assert x == 1"},
        {"completion": "x = 2", "tests": "assert x == 1"},
    ])
    with Grader(concurrency=1) as grader:
        out = grader.grade(table)
        assert [o.status for o in out] == ["pass", "invalid_input", "fail"]
        assert "row 1" in out[1].error and "completion" in out[1].error
        assert grader.grade(["not a dict"])[0].status == "invalid_input"


def test_options_by_cli_names_and_unknown_names_refused():
    opts = make_options(preset="humaneval", timeout=3, memory=256, reward="fraction", concurrency=4, wall_timeout=9)
    assert opts.checks.preset == "humaneval"
    assert (opts.checks.limits.cpu_s, opts.checks.limits.memory_mb, opts.checks.limits.wall_s) == (3, 256, 9)
    assert opts.reward.shape == "fraction" and opts.concurrency == 4
    with pytest.raises(TypeError, match="unknown grading option 'timout'"):
        make_options(timout=3)


def test_many_single_row_agrade_calls_and_cancellation():
    """verl's reward loop awaits one compute_score per response: many concurrent one-row
    calls must all come back right; a cancelled call must not leave its rows queued."""
    rows, want = rows_for(3, n=16)
    slow = [{"completion": "while True:\n    pass\n", "tests": "assert True\n"}] * 6

    async def main(grader):
        outs = await asyncio.gather(*(grader.agrade([r]) for r in rows))
        task = asyncio.ensure_future(grader.agrade(slow))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return outs

    with Grader(concurrency=2, timeout=1, wall_timeout=2) as grader:
        outs = asyncio.run(main(grader))
        assert [o[0].status for o in outs] == want
        q = grader._executor._work_queue
        queued = []
        while not q.empty():
            queued.append(q.get_nowait())
        for item in queued:
            q.put(item)
        queued = [item for item in queued if item is not None]
        assert queued and all(item.future.cancelled() for item in queued)  # dropped, not run
        assert [o.status for o in grader.grade(rows[:4])] == want[:4]  # and the pool still works
