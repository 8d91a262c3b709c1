"""The `make fidelity` tool's own logic on tiny synthetic data (no benchmark data, no sandbox):
how two verdicts are compared and classed, what the table and report say, the gates, the
deterministic mutants, the reference runner's limits and cache, and the skip without data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

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
    assert total[0] == "total" and total[1:] == ["7", "4", "4", "3", "3", "1", "50.00%"]
    listing = core.render_disagreements(dis)
    assert "toy/a: rlvr pass / reference failed (2)" in listing
    assert "  3: rlvr pass | ref failed: wrong answer" in listing
    capped = core.render_disagreements(dis, per_class=1)
    assert "... and 1 more (all in the report)" in capped and "  4:" not in capped


def test_gates_use_the_most_specific_prefix():
    groups, _ = core.summarize(_rows(), {})
    gates = [core.Gate("toy/", 1.0), core.Gate("toy/a", 0.4)]
    assert core.gate_failures(groups, gates) == []  # toy/a at 40% meets its own 40%
    fails = core.gate_failures(groups, [core.Gate("toy/", 0.5)])
    assert len(fails) == 1 and fails[0].startswith("toy/a: agreement 40.00% below 50.00%")


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
