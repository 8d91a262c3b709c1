"""MBPP sanitized (427 problems): every reference solution must pass, and its broken variants
(fidelity/mutants.py: body raises, returns None, first int literal or comparison off by one)
must fail. Reference: the problem's `test_imports`, the program and its `test_list` asserts as
one file, run unsandboxed in a plain subprocess (exit 0 = pass). rlvr-grade: `--preset mbpp`
(default 10 CPU seconds)."""

from __future__ import annotations

import json

from fidelity.context import Context
from fidelity.core import Case, Verdict
from fidelity.mutants import KINDS, mutate
from fidelity.refrun import RUNNER, exit_verdict, run_cached, run_python

GROUPS = {"mbpp/reference": "python asserts", **{f"mbpp/{k}": "python asserts" for k in KINDS}}
ARGS = ("--preset", "mbpp")
TIMEOUT = 20.0  # wall seconds; task 123 is CPU-heavy and the machine is shared


def collect(ctx: Context) -> list[Case]:
    with open(ctx.path("mbpp", "sanitized-mbpp.json")) as fh:
        problems = json.load(fh)
    cases = []
    for kind in ("reference", *KINDS):
        for p in problems:
            code = p["code"] if kind == "reference" else mutate(p["code"], kind)
            if code is None:
                continue  # no such mutant of this solution
            row = {"task_id": p["task_id"], "completion": code, "test_list": p["test_list"],
                   "test_imports": p["test_imports"]}
            program = "\n".join([*p["test_imports"], code, *p["test_list"]]) + "\n"
            cases.append(Case(f"mbpp/{kind}", str(p["task_id"]), row, ARGS, {"program": program}, code))
    return ctx.take(cases)


def reference(ctx: Context, cases: list[Case]) -> dict[str, Verdict]:
    cache = ctx.cache("mbpp")
    by_uid = {c.uid: c for c in cases}

    def run(uid: str) -> Verdict:
        return exit_verdict(run_python(ctx.ref_python, {"program.py": by_uid[uid].ref["program"]},
                                       ["program.py"], TIMEOUT * ctx.budget))

    items = [(c.uid, cache.key("mbpp-asserts", RUNNER, TIMEOUT * ctx.budget, c.ref["program"])) for c in cases]
    return run_cached(items, run, cache, ctx.jobs, ctx.progress("mbpp reference"))


def references(ctx: Context) -> dict[str, str]:
    return dict(GROUPS)
