"""HumanEval+ (v0.1.10): rlvr-grade grades the OriginFmt rows (a self-contained `check()` with
every base and plus input and its expected output, compared by an `assertion()` helper), and
evalplus's own evaluator grades the same program from HumanEvalPlus.jsonl.gz (base and plus
inputs, outputs of the canonical solution computed here, per-input time limits).

Programs: the canonical solutions (HumanEval+'s prompt + canonical_solution: evalplus passes
them by construction, except where its time limits bite), and the CodeGen-16B samples (CodeT's
prompt + sample, the program the model wrote; first 10 per problem by default, all 100 with
--full). rlvr-grade: `--preset humaneval --timeout 15` (one CPU budget for the whole check;
evalplus gives each input max(1 s, 4 x the canonical solution's time), at most 60 s in all)."""

from __future__ import annotations

import gzip
import hashlib
import json

from fidelity.context import Context, run_driver
from fidelity.core import Case, Verdict
from fidelity.humaneval import PER_PROBLEM_DEFAULT, codegen_samples

GROUPS = {"humanevalplus/canonical": "evalplus", "humanevalplus/codegen16B": "evalplus"}
ORIGIN = "HumanEvalPlus-OriginFmt.jsonl.gz"
PLUS = "HumanEvalPlus.jsonl.gz"
# 15 CPU s: the canonical solutions of HumanEval/15 and /139 spend ~12 CPU s in OriginFmt's
# check() (plain python, measured); the wall backstop is wide because the machine is shared.
# Part of every cached evalplus verdict's key: a change of what the driver reports reruns them.
DRIVER = "evalplus_ref/2: per-input time limits named"
ARGS = ("--preset", "humaneval", "--timeout", "15", "--wall-timeout", "60")


def _load(path: str) -> dict[str, dict]:
    with gzip.open(path, "rt") as fh:
        return {p["task_id"]: p for p in map(json.loads, fh)}


def collect(ctx: Context) -> list[Case]:
    origin = _load(ctx.path("humanevalplus", ORIGIN))
    plus = _load(ctx.path("humanevalplus", PLUS))
    if set(origin) != set(plus):
        raise RuntimeError(f"{ORIGIN} and {PLUS} hold different tasks")
    cases = []

    def case(group: str, key: str, task: str, prompt: str, completion: str) -> Case:
        o = origin[task]
        row = {"task_id": task, "prompt": prompt, "completion": completion, "test": o["test"],
               "entry_point": o["entry_point"]}
        return Case(group, key, row, ARGS, {"task_id": task, "solution": prompt + completion}, prompt + completion)

    for task, o in origin.items():
        cases.append(case("humanevalplus/canonical", task, task, o["prompt"], o["canonical_solution"]))
    for key, p, completion in codegen_samples(ctx, 100 if ctx.full else PER_PROBLEM_DEFAULT):
        cases.append(case("humanevalplus/codegen16B", key, p["task_id"], p["prompt"], completion))
    return ctx.take(cases)


def reference(ctx: Context, cases: list[Case]) -> dict[str, Verdict]:
    cache = ctx.cache("evalplus")
    data = ctx.path("humanevalplus", PLUS)
    with open(data, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    items = [(c.uid, cache.key("evalplus==0.3.1", DRIVER, ctx.budget, digest, c.ref["task_id"], c.ref["solution"]), c.ref)
             for c in cases]
    env = {"HUMANEVAL_OVERRIDE_PATH": data,
           # evalplus caches the canonical outputs and timings under its user cache dir: ours.
           "XDG_CACHE_HOME": f"{ctx.work}/evalplus-cache"}
    args = ["--budget", str(ctx.budget), *(["--retime"] if ctx.rerun else [])]
    return run_driver(ctx, "evalplus_ref.py", items, cache, env=env, what="evalplus", args=args)


def references(ctx: Context) -> dict[str, str]:
    return dict(GROUPS)
