"""Beam memory snapshots against the local fake gateway (issue 18): the heavy-imports rows
(bench/heavy.py: pandas/numpy, in an environment built from them) graded one check at a time
through `--backend beam`, plain (every check a sandbox created from the environment's image,
importing pandas itself) and with snapshots (every check a sandbox restored from a warm
seed that imported pandas before the snapshot).

What this measures is the fake's, not Beam's: the fake cannot checkpoint a process, so its
"restore" runs the seed again up to where it waited (pandas imported) before answering. The
snapshot path's per-check time here therefore includes a full seed start and preload: the
figure shows the path's overhead and that the verdicts agree, not the speed a real restore
would give (that needs a Beam account; Beam's claim is a restore without re-running).

    python -m bench.beam_snapshot [ROWS]      # from the repository root (needs tests/fake_beam)
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from bench.heavy import _median, build_env, rows


def _grade(gw: Any, env_id: str, data: list[dict[str, str]], snapshot: bool) -> dict[str, Any]:
    from rlvr_grade.api import Grader
    from rlvr_grade.sandbox.beam import BeamBackend

    be = BeamBackend(concurrency=1, context=gw.context(), rpc_timeout=120, poll_s=0.02, snapshot=snapshot)
    t0 = time.perf_counter()
    with Grader(backend=be, env=env_id, concurrency=1, timeout=30, wall_timeout=60, cache=None) as g:
        first = g.grade([data[0]])[0]  # the image (and with snapshots the warm-up) happen here
        start_s = time.perf_counter() - t0
        outcomes = [first] + [g.grade([r])[0] for r in data[1:]]
    ms = [o.duration_ms for o in outcomes[1:]]
    return {"median_ms": round(_median(ms), 1), "first_s": round(start_s, 2),
            "passed": sum(o.status == "pass" for o in outcomes), "checks": len(outcomes),
            "statuses": [o.status for o in outcomes], "stats": dict(be.stats)}


def run(n: int = 10) -> dict[str, Any]:
    from tests.fake_beam import FakeGateway

    env = build_env(lambda m: print(m, file=sys.stderr))
    data = rows(n)
    gw = FakeGateway().start()
    try:
        out = {"rows": n, "environment": env.short_id}
        for key, snap in (("plain", False), ("snapshot", True), ("plain_again", False), ("snapshot_again", True)):
            out[key] = _grade(gw, env.id, data, snap)
            print(f"  {key:15s} {out[key]['median_ms']:8.1f} ms/check, first {out[key]['first_s']} s, "
                  f"pass {out[key]['passed']}/{n}", file=sys.stderr)
    finally:
        gw.stop()
    out["same_verdicts"] = out["plain"]["statuses"] == out["snapshot"]["statuses"]
    return out


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else 10), indent=1))
