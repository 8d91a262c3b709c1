"""Peak memory of the grader while it streams many small rows (10k, 100k, 1M).

1,000,000 real sandboxed checks would take the better part of an hour on 2 cores, so the rows
are made cheap to grade *honestly*:

- `dedupe` mode (when rlvr-grade has its result cache, i.e. `score --no-cache` exists):
  1,000 distinct trivial rollouts, each repeated; the first copy runs in the sandbox, every
  later copy is served by the cache (default behaviour: a cache file, here a fresh one).
- `structural` mode (no cache yet): in every block of 1,000 rows one is a real trivial check
  that runs in the sandbox and 999 carry an empty tests column, so they are `invalid_input`.
  Every row is still read, parsed, turned into a check attempt, put through the pool's
  ordered window, summarized and written back — the streaming path whose memory must stay
  flat — only the fork is skipped.

The grader is the CLI as a user runs it (`-o -`, output to /dev/null); RSS of the whole process
tree (the CLI, its zygotes, their per-check children) is sampled from /proc."""

from __future__ import annotations

import json
import os
from typing import Any

from bench import measure


def mode() -> str:
    return "dedupe" if "--no-cache" in measure.cli_help() else "structural"


def write_rows(path: str, n: int, how: str) -> None:
    with open(path, "w") as fh:
        for i in range(n):
            k = i % 1000
            tests = f"assert f() == {k}\n"
            if how == "structural" and i % 1000:
                tests = ""
            fh.write(json.dumps({"id": i, "completion": f"def f():\n    return {k}\n", "tests": tests}) + "\n")


def measure_sizes(sizes: list[int], workdir: str, log=print) -> dict[str, Any]:
    how = mode()
    out: dict[str, Any] = {"mode": how, "runs": []}
    for n in sizes:
        path = os.path.join(workdir, f"rows-{n}.jsonl")
        write_rows(path, n, how)
        cmd = [measure.venv_bin("rlvr-grade"), "score", path, "-o", "-", "-q", "--timeout", "10"]
        if how == "dedupe":
            cmd += ["--cache", os.path.join(workdir, f"mem-cache-{n}.sqlite")]
        st = measure.run(cmd, stdout="/dev/null", sample_rss=True, timeout=3600)
        os.unlink(path)
        for suffix in ("", "-wal", "-shm"):
            cache_file = os.path.join(workdir, f"mem-cache-{n}.sqlite{suffix}")
            if os.path.exists(cache_file):
                os.unlink(cache_file)
        run = {
            "rows": n,
            "wall_s": round(st.wall_s, 2),
            "cpu_s": round(st.cpu_s, 2),
            "rows_per_s": round(n / st.wall_s, 1),
            "cpu_us_per_row": round(st.cpu_s / n * 1e6, 1),
            "grader_rss_peak_mb": st.main_rss_peak_mb,
            "tree_rss_peak_mb": st.tree_rss_peak_mb,
            "tree_pss_peak_mb": st.tree_pss_peak_mb,
            "maxrss_mb": round(st.maxrss_mb, 1),
            "returncode": st.returncode,
            "rss_timeline": st.samples[:: max(1, len(st.samples) // 40)],
        }
        if st.returncode != 0:
            run["error"] = st.stderr_tail[-500:]
        out["runs"].append(run)
        log(f"  {n:>9,} rows: {run['wall_s']:.1f} s, grader RSS peak {run['grader_rss_peak_mb']} MB, "
            f"tree RSS {run['tree_rss_peak_mb']} MB (PSS {run['tree_pss_peak_mb']} MB)")
    runs = out["runs"]
    if len(runs) >= 2 and runs[0]["grader_rss_peak_mb"]:
        out["growth_mb"] = round(runs[-1]["grader_rss_peak_mb"] - runs[0]["grader_rss_peak_mb"], 1)
    return out
