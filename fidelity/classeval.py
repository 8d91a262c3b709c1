"""ClassEval (100 class-level tasks): the reference solutions and ChatGPT's greedy outputs
(model_output_ChatGPT_100_c_t0.json), each graded by ClassEval's own unittest run
(fidelity/refs/classeval_ref.py, unsandboxed, in the reference venv that holds the packages the
tasks import) and by rlvr-grade (the program as `solution.py`, the tests as a pytest module
starting `from solution import *`, default 10 CPU seconds). ChatGPT's answer becomes a program
the way ClassEval's test_pipeline.py makes it: the code block taken out of the answer, methods
without `self`/`cls` made static, the task's import statements put first.

rlvr-grade grades these rows in an environment built from requirements-classeval.txt
(fidelity/environment.py). A row that fails on one side only because a package is missing (the
environment could not be built here, or a package is absent from the reference venv) is an
environment row, counted apart."""

from __future__ import annotations

import ast
import json
import os
import re

from fidelity.context import RESULT, Context
from fidelity.core import Case, Verdict
from fidelity.refrun import RUNNER, last_line, run_cached, run_python

GROUPS = {"classeval/reference": "ClassEval unittest", "classeval/chatgpt": "ClassEval unittest"}
ARGS: tuple[str, ...] = ()
MODULE = "classeval_task"
LIMIT_S = 5.0  # ClassEval's own limit per test class (fidelity/refs/classeval_ref.py)
DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs", "classeval_ref.py")


# -- ClassEval's answer-to-program rules (test_pipeline.py: extract_code, add_static_statement) --
_FENCES = (r"```python(.*?)```", r"```ruby(.*?)```", r"```scss(.*?)```", r"```python(.*?)", r"```(.*?)```",
           r"\[PYTHON\](.*?)\[/PYTHON\]")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def extract_code(text: str) -> str:
    text = text.rstrip()
    for marker in ("### Response:", "@@ Response:", "[/INST]"):
        if marker in text:
            text = text.split(marker)[1]
            break
    for pattern in _FENCES:
        found = re.findall(pattern, text, re.S)
        if found:
            return found[0]
    # No fence: drop the prose before the class (keeping import lines), then dedent the class
    # if the answer indented it.
    lines = text.split("\n")
    dropped = []
    for line in lines:
        if line.strip().startswith("class"):
            break
        if not line.strip().startswith(("import", "from")):
            dropped.append(line)
    text = "\n".join(line for line in lines if line not in dropped)
    shift = None
    for line in text.split("\n"):
        if line.strip().startswith("class"):
            shift = _indent(line)
            break
    if shift:
        text = "\n".join(" " * (_indent(line) - shift) + line.lstrip() for line in text.split("\n"))
    return text


def add_static(code: str) -> str:
    lines = [line for line in code.split("\n") if "@staticmethod" not in line]
    out = []
    for line in lines:
        if line.strip().startswith("def ") and "self" not in line and "cls" not in line and _indent(line) == 4:
            out.append("    @staticmethod")
        out.append(line)
    return "\n".join(out)


def chatgpt_program(answer: str, imports: list[str]) -> str:
    return "\n".join(imports) + "\n" + add_static(extract_code(answer))


def classes_with_tests(test_source: str, names: list[str]) -> list[str]:
    """The listed test classes that define a test method, read from the task's test code.
    ClassEval_69 lists TestPDFHandler, a class that only holds the others' setUpClass (no
    test method): unittest runs no test there, which ClassEval's get_test_answer calls an
    error, failing every program of the task, its reference too (a data bug). A class this
    cannot read (not found, or built on a base other than unittest.TestCase, which may bring
    tests) stays listed; a listed class with test methods is never dropped."""
    try:
        tree = ast.parse(test_source)
    except SyntaxError:
        return names
    defs = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def plain_testcase(base: ast.expr) -> bool:
        return ast.unparse(base) in ("unittest.TestCase", "TestCase")

    keep = []
    for name in names:
        node = defs.get(name)
        empty = node is not None and all(plain_testcase(b) for b in node.bases) and not any(
            isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("test") for f in node.body)
        if not empty:
            keep.append(name)
    return keep


def reference_seed(row: dict) -> int:
    """The seed of `random` rlvr-grade's check of `row` starts from (its tests' stream,
    rlvr_harness/seeding.py), for the reference's run of the same program and tests: both then
    draw the same numbers (pytest and unittest run a task's classes in file order and their
    methods by name). A row whose verdict depends on its draws is then compared on equal terms,
    and agrees only if both graders judge those draws alike."""
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.types import Rollout
    from rlvr_harness.seeding import seeds

    return seeds(build_check(Rollout(index=0, row=row), CheckOptions()).payload()).tests


def collect(ctx: Context) -> list[Case]:
    with open(ctx.path("classeval", "ClassEval_data.json")) as fh:
        tasks = json.load(fh)
    with open(ctx.path("classeval", "model_output_ChatGPT_100_c_t0.json")) as fh:
        answers = {t["task_id"]: t["predict"] for t in json.load(fh)}
    cases = []
    for kind in ("reference", "chatgpt"):
        for t in tasks:
            programs = [t["solution_code"]] if kind == "reference" else \
                [chatgpt_program(a, t["import_statement"]) for a in answers.get(t["task_id"], [])]
            for i, code in enumerate(programs):
                key = t["task_id"] if len(programs) == 1 else f"{t['task_id']}#{i}"
                row = {"completion": code, "tests": "from solution import *\n" + t["test"]}
                # Names stripped: ClassEval_97 lists " Words2NumbersTestMain", which ClassEval's own
                # getattr() cannot find, failing every program of that task (a data bug); and only
                # classes with a test method (ClassEval_69, classes_with_tests).
                classes = classes_with_tests(t["test"], [n.strip() for n in t["test_classes"]])
                ref = {"module": code + "\n" + t["test"], "classes": classes, "seed": reference_seed(row)}
                cases.append(Case(f"classeval/{kind}", key, row, ARGS, ref, code))
    return ctx.take(cases)


def reference(ctx: Context, cases: list[Case]) -> dict[str, Verdict]:
    cache = ctx.cache("classeval")
    by_uid = {c.uid: c for c in cases}
    with open(DRIVER) as fh:
        driver = fh.read()

    def run(uid: str) -> Verdict:
        ref = by_uid[uid].ref
        limit = LIMIT_S * ctx.budget
        timeout = limit * (len(ref["classes"]) + 1) + 20.0
        p = run_python(ctx.ref_python, {f"{MODULE}.py": ref["module"], "run_classeval.py": driver},
                       ["run_classeval.py", MODULE, json.dumps(ref["classes"]), str(limit), str(ref["seed"])], timeout)
        for line in p.stdout.splitlines():
            if line.startswith(RESULT):
                d = json.loads(line[len(RESULT):])
                return Verdict(bool(d["passed"]), d["status"], d["error"])
        if p.timed_out:
            return Verdict(False, "timeout", "killed at the wall timeout")
        return Verdict(False, "crashed", last_line(p.stderr) or f"exit {p.returncode} without a result")

    items = [(c.uid, cache.key("classeval-unittest", RUNNER, driver, ctx.budget, c.ref)) for c in cases]
    return run_cached(items, run, cache, ctx.jobs, ctx.progress("classeval reference"))


def references(ctx: Context) -> dict[str, str]:
    return dict(GROUPS)
