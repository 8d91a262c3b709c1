"""The "heavy imports" workload (issue 18): rows whose programs import pandas and numpy, graded
in an environment built from a requirements file naming them, four ways in one run:

    preloaded      rlvr-grade (library, local sandbox), the environment's seed has imported
                   pandas and numpy before forking: a check's `import pandas` is a dict lookup
    preload none   the same, `preload="none"`: every check imports them itself
    fresh          the environment's interpreter started per check, no sandbox at all
    bwrap          the same inside bubblewrap (namespaces), when bwrap is installed

Each check's own time is measured one check at a time (concurrency 1, so no check waits on
another): rlvr-grade's per-check duration (Outcome.duration_ms: send, fork, run, collect) and
the process's wall time for the baselines, with its CPU (children's rusage) for the fresh
interpreter. The systems alternate within each repeat (the order rotates) and the ratios are
taken per repeat, then the median: a noisy machine moves both sides of a ratio together.

Targets: the preloaded median check time >= 10x lower than `--preload none`, >= 20x lower than
a fresh interpreter per check. The environment is built from the package index on first use
(the registry this machine has; network needed once), then found again without resolving."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
import time
from typing import Any, Callable

REQUIREMENTS = ["pandas", "numpy"]
ROWS = 30


def rows(n: int = ROWS) -> list[dict[str, str]]:
    """Each a small pandas/numpy task with its asserts (every one passes)."""
    out = []
    for i in range(n):
        program = (
            "import numpy as np\nimport pandas as pd\n\n"
            "def summarize(values):\n"
            "    s = pd.Series(values, dtype='float64')\n"
            f"    return float(np.round(s.mean() + {i}, 6)), int((s > s.median()).sum())\n"
        )
        tests = f"assert summarize([1, 2, 3, 4]) == ({2.5 + i}, 2)\nassert summarize([5.0]) == ({5.0 + i}, 0)\n"
        out.append({"completion": program, "tests": tests})
    return out


def build_env(log: Callable[[str], None]) -> Any:
    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec

    spec = EnvSpec.parse(packages=REQUIREMENTS)
    return envs.ensure(spec, progress=log)


def _grade(env_id: str, data: list[dict[str, str]], preload: str | None) -> tuple[list[float], int, float]:
    """(per-check ms, passed, pool start s) through the library, one check at a time."""
    from rlvr_grade.api import Grader

    t0 = time.perf_counter()
    with Grader(env=env_id, concurrency=1, preload=preload, timeout=30, wall_timeout=60) as g:
        g.grade([{"completion": "x = 1", "tests": "assert x == 1"}])  # the pool and the environment's seed up
        start_s = time.perf_counter() - t0
        outcomes = [g.grade([r])[0] for r in data]
    return [o.duration_ms for o in outcomes], sum(o.status == "pass" for o in outcomes), start_s


def _processes(python: str, data: list[dict[str, str]], bwrap: bool) -> tuple[list[float], int, list[float]]:
    """(per-check wall ms, passed, per-check CPU ms): a new interpreter per check, in bwrap or not."""
    walls, cpus, passed = [], [], 0
    with tempfile.TemporaryDirectory(prefix="rlvr-heavy-") as work:
        for i, r in enumerate(data):
            path = os.path.join(work, f"check{i}.py")
            with open(path, "w") as fh:
                fh.write(r["completion"] + "\n" + r["tests"])
            cmd = [python, "-s", path]
            if bwrap:
                cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
                       "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--ro-bind", work, work, *cmd]
            env = {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            res = subprocess.run(cmd, env=env, capture_output=True, timeout=120, cwd=work)
            walls.append((time.perf_counter() - t0) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
            passed += res.returncode == 0
    return walls, passed, cpus


def _median(xs: list[float]) -> float | None:
    s = sorted(xs)
    return None if not s else (s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2)


def run(repeats: int = 2, n: int = ROWS, log: Callable[[str], None] = print) -> dict[str, Any]:
    log(f"\n== heavy imports: {n} pandas/numpy rows in an environment ({', '.join(REQUIREMENTS)})")
    try:
        env = build_env(log)
    except Exception as exc:  # noqa: BLE001 - no registry here: the section says so, the bench goes on
        return {"skipped": f"could not build the environment: {type(exc).__name__}: {exc}"[:400]}
    data = rows(n)
    have_bwrap = shutil.which("bwrap") is not None
    systems: dict[str, Callable[[], tuple[list[float], int, Any]]] = {
        "preloaded": lambda: _grade(env.id, data, None),
        "preload_none": lambda: _grade(env.id, data, "none"),
        "fresh": lambda: _processes(env.interpreter, data, bwrap=False),
    }
    if have_bwrap:
        systems["bwrap"] = lambda: _processes(env.interpreter, data, bwrap=True)
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in systems}
    order = list(systems)
    for rep in range(repeats):
        for key in order[rep % len(order):] + order[: rep % len(order)]:
            ms, passed, extra = systems[key]()
            run_ = {"median_ms": _median(ms), "passed": passed, "checks": len(ms)}
            if isinstance(extra, list) and key != "bwrap":  # bwrap's pid-namespace init reaps the check: no rusage reaches us
                run_["median_cpu_ms"] = _median(extra)
            elif not isinstance(extra, list):
                run_["start_s"] = round(extra, 2)
            runs[key].append(run_)
            log(f"  [{rep + 1}/{repeats}] {key:13s} median {run_['median_ms']:8.1f} ms/check  pass {passed}/{len(ms)}")
    out: dict[str, Any] = {"rows": n, "environment": env.short_id, "requirements": REQUIREMENTS,
                           "lock": dict(env.lock.distributions), "repeats": repeats, "systems": {}}
    for key, rs in runs.items():
        out["systems"][key] = {
            "median_ms": round(_median([r["median_ms"] for r in rs]), 1),
            "passed": min(r["passed"] for r in rs), "checks": n,
            **({"median_cpu_ms": round(_median([r["median_cpu_ms"] for r in rs]), 1)} if "median_cpu_ms" in rs[0] else {}),
            **({"start_s": _median([r["start_s"] for r in rs])} if "start_s" in rs[0] else {}),
        }
    for key in ("preload_none", "fresh", "bwrap"):
        if key in runs:
            ratios = [o["median_ms"] / p["median_ms"] for o, p in zip(runs[key], runs["preloaded"], strict=True)]
            out["systems"][key]["x_preloaded"] = round(_median(ratios), 1)
    if not have_bwrap:
        out["systems"]["bwrap"] = {"skipped": "bwrap is not installed"}
    return out


def targets(h: dict[str, Any]) -> list[dict[str, Any]]:
    s = h.get("systems", {})
    t = []
    if "x_preloaded" in s.get("preload_none", {}):
        v = s["preload_none"]["x_preloaded"]
        t.append({"target": "heavy imports: preloaded median check time >= 10x lower than --preload none", "value": v, "met": v >= 10})
    if "x_preloaded" in s.get("fresh", {}):
        v = s["fresh"]["x_preloaded"]
        t.append({"target": "heavy imports: preloaded median check time >= 20x lower than a fresh interpreter per check", "value": v,
                  "met": v >= 20})
    return t


def render(h: dict[str, Any]) -> str:
    if "skipped" in h:
        return f"Heavy imports: skipped — {h['skipped']}"
    parts = []
    for key, s in h["systems"].items():
        if "skipped" in s:
            parts.append(f"{key}: skipped ({s['skipped']})")
            continue
        part = f"{key} {s['median_ms']} ms/check"
        if "median_cpu_ms" in s:
            part += f" ({s['median_cpu_ms']} ms CPU)"
        if "x_preloaded" in s:
            part += f" = {s['x_preloaded']}x preloaded"
        parts.append(part + f", pass {s['passed']}/{s['checks']}")
    return (f"Heavy imports ({h['rows']} pandas/numpy rows, environment {h['environment']}, one check at a time, "
            f"median per check): " + "; ".join(parts))


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run(repeats=int(sys.argv[1]) if len(sys.argv) > 1 else 2, log=lambda m: print(m, file=sys.stderr)), indent=1))
