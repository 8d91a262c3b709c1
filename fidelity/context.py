"""What every dataset adapter gets: where the data and the work folder are, the reference venv's
Python, how many jobs, how much of each dataset, and the reference caches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable

from fidelity.core import Case, Verdict
from fidelity.refrun import RefCache

REFS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs")
RESULT = "FIDELITY-RESULT "  # the drivers' result lines start with this; anything else is chatter


@dataclass
class Context:
    data: str
    work: str
    ref_python: str
    jobs: int = 2
    full: bool = False
    limit: int | None = None  # at most this many cases per group (smoke runs)
    use_ref_cache: bool = True
    humaneval_live: bool = False
    # A confirming rerun (fidelity/__main__.py `confirm`): `rerun` marks it (uncached, one job,
    # evalplus measures its canonical times again); `budget` multiplies the reference's own time
    # limits (1 = as the reference sets them; the wider budget is WIDE_BUDGET).
    rerun: bool = False
    budget: float = 1.0
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr, flush=True))

    def path(self, *parts: str) -> str:
        return os.path.join(self.data, *parts)

    def cache(self, name: str) -> RefCache:
        return RefCache(os.path.join(self.work, "refcache", f"{name}.jsonl") if self.use_ref_cache else None)

    def take(self, cases: list[Case]) -> list[Case]:
        """`limit` cases per group, in order (the first ones, so runs stay comparable)."""
        if not self.limit:
            return cases
        seen: dict[str, int] = {}
        out = []
        for c in cases:
            if seen.get(c.group, 0) < self.limit:
                seen[c.group] = seen.get(c.group, 0) + 1
                out.append(c)
        return out

    def progress(self, what: str) -> Callable[[int, int], None]:
        step = [0]

        def report(done: int, total: int) -> None:
            if done == total or done >= step[0] + max(50, total // 10):
                step[0] = done
                self.log(f"  {what}: {done}/{total}")

        return report


def run_driver(ctx: Context, script: str, items: Iterable[tuple[str, str, dict]], cache: RefCache,
               env: dict[str, str] | None = None, what: str = "reference",
               args: Iterable[str] = ()) -> dict[str, Verdict]:
    """Run a batch reference driver (fidelity/refs/<script>, in the reference venv) over the
    items not cached yet. `items` are (uid, content hash, payload); the driver reads one JSON
    payload list on stdin (each payload gains "uid") and prints one line per finished item:
    RESULT + {"uid", "passed", "status", "error"}. Lines are cached as they arrive, so an interrupted
    run resumes where it stopped."""
    out: dict[str, Verdict] = {}
    todo = []
    hashes = {}
    for uid, h, payload in items:
        v = cache.get(h)
        if v is None:
            todo.append({**payload, "uid": uid})
            hashes[uid] = h
        else:
            out[uid] = v
    if not todo:
        return out
    ctx.log(f"  {what}: {len(todo)} to run ({len(out)} cached)")
    report = ctx.progress(what)
    full_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", **(env or {})}
    proc = subprocess.Popen([ctx.ref_python, os.path.join(REFS, script), "--jobs", str(ctx.jobs), *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=full_env, text=True, cwd=ctx.work)
    err_tail: list[str] = []

    def drain() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            err_tail.append(line)
            del err_tail[:-40]

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(todo))
    proc.stdin.close()
    done = 0
    for line in proc.stdout:
        if not line.startswith(RESULT):
            continue  # a reference's own chatter
        d = json.loads(line[len(RESULT):])
        v = Verdict(bool(d["passed"]), d["status"], d.get("error") or "")
        cache.put(hashes[d["uid"]], v)
        out[d["uid"]] = v
        done += 1
        report(done, len(todo))
    proc.wait()
    t.join()
    missing = [x["uid"] for x in todo if x["uid"] not in out]
    if proc.returncode != 0 or missing:
        raise RuntimeError(f"reference driver {script} exited {proc.returncode}, {len(missing)} items without a "
                           f"verdict: {''.join(err_tail)[-3000:]}")
    return out
