"""An environment is the check's world (issue 18, phase B): the local and gVisor backends run a
check in its environment's interpreter, over a root made of that environment (its
site-packages, the base interpreter's stdlib, the harness) and nothing of the grader's; the
local seed preloads the environment's modules before forking, with thread pools pinned to one
thread, and refuses to fork when a preload left a thread running. Environments are built
offline from the `wheelhouse` fixture's wheels."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr_grade import envs
from rlvr_grade.api import Grader
from tests.conftest import ROOT, read_jsonl, write_jsonl
from tests.envs.test_envs import spec_of


def row(program: str, tests: str = "assert True\n", **extra) -> dict:
    return {"completion": program, "tests": tests, **extra}


# -- the grader's packages are not the check's ---------------------------------------------------


GRADERS_OWN = ("typer", "pyarrow", "orjson", "rich", "hypothesis", "uv")


@pytest.mark.parametrize("style", ["asserts", "pytest"])
def test_a_check_in_the_default_environment_cannot_import_the_graders_packages(style):
    """The default environment is the stdlib + pytest: the grader's venv (typer, pyarrow, ...)
    is neither on the check's path nor in its root."""
    for name in GRADERS_OWN:
        __import__(name)  # importable here, in the grader
    probes = "".join(f"    try:\n        import {n}\n        got.append({n!r})\n    except ImportError:\n        pass\n"
                     for n in GRADERS_OWN)
    program = "import os, sys\ndef found():\n    got = []\n" + probes + "    return got\n"
    if style == "pytest":  # pytest itself from the default environment, and nothing else
        tests = "import pytest\nfrom solution import found\n\ndef test_none():\n    assert found() == []\n"
    else:  # and no folder of the grader's interpreter prefix (its venv) on the path
        tests = f"assert found() == []\nassert not any(p.startswith({sys.prefix!r}) for p in sys.path), sys.path\n"
    with Grader(concurrency=1, test_style=style) as g:
        [outcome] = g.grade([row(program, tests)])
    assert outcome.status == "pass", outcome.error


def test_what_the_default_environment_holds_is_importable_and_nothing_more(tmp_path):
    with Grader(concurrency=1) as g:
        outcomes = g.grade([
            row("import json, sqlite3, decimal, iniconfig\n", "assert iniconfig.IniConfig\n"),
            row("import typer\n"),
        ])
    assert outcomes[0].status == "pass", outcomes[0].error
    assert outcomes[1].status != "pass" and "No module named 'typer'" in outcomes[1].error


# -- a check runs in its own environment -------------------------------------------------------


def test_a_check_imports_its_environments_packages_and_another_environment_grades_it_again(wheelhouse, tmp_path):
    two = envs.build(spec_of(wheelhouse, "tinyint==2.0"), name="two")
    one = envs.build(spec_of(wheelhouse, "tinyint==1.0"), name="one")
    rows = [row("import tinyint\nV = tinyint.VALUE\n", "assert V == 2\n")]
    cache = str(tmp_path / "c.sqlite")
    with Grader(env="two", cache=cache, concurrency=1) as g:
        [in_two] = g.grade(rows)
    with Grader(env="one", cache=cache, concurrency=1) as g:
        [in_one] = g.grade(rows)
    with Grader(cache=cache, concurrency=1) as g:
        [in_default] = g.grade(rows)
        [again_in_two] = g.grade([{**rows[0], "env": "two"}])  # the row's own column
    assert in_two.status == "pass" and not in_two.cached
    assert in_one.status == "fail" and not in_one.cached  # executed again: tinyint 1.0 there
    assert in_default.status == "runtime_error" and "No module named 'tinyint'" in in_default.error
    assert again_in_two.cached and again_in_two.status == "pass"
    assert one.id != two.id


def test_the_local_seed_preloads_the_environment_before_forking_and_pins_thread_pools(wheelhouse):
    envs.build(spec_of(wheelhouse, "importprobe"), name="probe")
    program = ("import os, sys\nBEFORE = 'importprobe' in sys.modules\nimport importprobe\n"
               "MINE = importprobe.PID == os.getpid()\n")
    tests = ("assert importprobe.OMP == '1' and os.environ['OMP_NUM_THREADS'] == '1'\n"
             "assert os.environ['OPENBLAS_NUM_THREADS'] == '1' and os.environ['MKL_NUM_THREADS'] == '1'\n")
    with Grader(env="probe", concurrency=1) as g:
        [preloaded] = g.grade([row(program, tests + "assert BEFORE and not MINE\n")])
        features = g.backend.isolation()
    with Grader(env="probe", concurrency=1, preload="none") as g:
        [fresh] = g.grade([row(program, tests + "assert not BEFORE and MINE\n")])
    with Grader(env="probe", concurrency=1, preload=("json",)) as g:
        [chosen] = g.grade([row(program, tests + "assert not BEFORE and 'json' in sys.modules\n")])
    assert preloaded.status == "pass", preloaded.error
    assert fresh.status == "pass", fresh.error
    assert chosen.status == "pass", chosen.error
    assert features["preloaded"] == "importprobe" and features["environment"].startswith("probe (")


def test_nothing_a_check_does_to_a_preloaded_module_reaches_the_next_check(wheelhouse):
    envs.build(spec_of(wheelhouse, "importprobe"), name="probe")
    spoil = ("import importprobe, sys, os\nimportprobe.VALUE = 'spoiled'\nimportprobe.EXTRA = 1\n"
             "sys.modules['json'] = None\nos.environ['OMP_NUM_THREADS'] = '8'\n"
             "open('/tmp/left-behind', 'w').write('x')\n")
    look = ("import importprobe, os, json\n"
            "STATE = (importprobe.VALUE, hasattr(importprobe, 'EXTRA'), os.environ['OMP_NUM_THREADS'], os.path.exists('/tmp/left-behind'))\n")
    with Grader(env="probe", concurrency=1) as g:  # one slot: the same worker runs all three
        outcomes = g.grade([row(spoil), row(look, "assert STATE == ('pristine', False, '1', False), STATE\n"),
                            row(look + "#2\n", "assert STATE == ('pristine', False, '1', False), STATE\n")])
    assert [o.status for o in outcomes] == ["pass", "pass", "pass"], [o.error for o in outcomes]


def test_a_seed_whose_preload_leaves_a_thread_refuses_to_fork_naming_the_module(wheelhouse, tmp_path):
    spin = envs.build(spec_of(wheelhouse, "spinner"), name="spin")
    with pytest.raises(envs.EnvError, match="preloading 'spinner' left 1 thread"):
        with Grader(env="spin", concurrency=1) as g:
            g.grade([row("x = 1\n")])
    # A row naming it in its column: that row's sandbox_error, the others graded.
    with Grader(concurrency=1, retries=0) as g:
        refused, plain = g.grade([row("x = 1\n", env="spin"), row("x = 1\n")])
    assert refused.status == "sandbox_error" and "preloading 'spinner'" in refused.error and refused.reward is None
    assert plain.status == "pass"
    # Without the preload the environment runs (the thread starts in the check, not the seed).
    with Grader(env="spin", concurrency=1, preload="none") as g:
        [ok] = g.grade([row("import spinner, threading\n", "assert threading.active_count() == 2\n")])
    assert ok.status == "pass", ok.error
    assert spin.preload == ("spinner",)


def test_preload_names_are_checked():
    from rlvr_grade.sandbox.local import preload_choice

    assert preload_choice(None) is None
    assert preload_choice("none") == () and preload_choice(()) == ()
    assert preload_choice("pandas, numpy.linalg") == ("pandas", "numpy.linalg")
    with pytest.raises(ValueError, match="not a module name"):
        preload_choice("os; import x")


# -- the CLI ---------------------------------------------------------------------------------


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr_grade", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ))


def test_score_and_filter_run_rows_in_the_env_and_preload_is_a_flag(wheelhouse, tmp_path):
    req = tmp_path / "reqs.txt"
    req.write_text(f"--no-index\n--find-links {wheelhouse}\ntinyint==2.0\n")
    rows = write_jsonl(tmp_path / "rows.jsonl", [
        row("import tinyint\nV = tinyint.VALUE\n", "assert V == 2\n"),
        row("V = 3\n", "assert V == 2\n"),
    ])
    out = tmp_path / "out.jsonl"
    proc = cli("score", str(rows), "-o", str(out), "--env", str(req), "-q", "--preload", "tinyint")
    assert proc.returncode == 0, proc.stderr
    assert [r["status"] for r in read_jsonl(out)] == ["pass", "fail"]
    kept = tmp_path / "kept.jsonl"
    scored = tmp_path / "scored.jsonl"
    proc = cli("filter", str(rows), "-o", str(kept), "--save-scored", str(scored), "--env", str(req), "-q", "--preload", "none")
    assert proc.returncode == 0, proc.stderr
    assert [r["status"] for r in read_jsonl(scored)] == ["pass", "fail"]
    bad = cli("score", str(rows), "-o", str(out), "--preload", "a b")
    assert bad.returncode == 2 and "--preload" in bad.stderr


# -- gVisor: the same environment directory is its root ------------------------------------------


def _gvisor_ready() -> bool:
    return shutil.which("runsc") is not None and os.geteuid() == 0


@pytest.mark.skipif(not _gvisor_ready(), reason="runsc and root needed")
def test_gvisor_runs_a_check_in_its_environment(wheelhouse):
    envs.build(spec_of(wheelhouse, "tinyint==2.0"), name="two")
    from rlvr_grade.api import ScoreOptions

    with Grader(ScoreOptions(backend="gvisor", concurrency=2)) as g:
        outcomes = g.grade([
            row("import tinyint\nV = tinyint.VALUE\n", "assert V == 2\n", env="two"),
            row("import tinyint\n"),
            row("import typer\n"),
        ])
    assert outcomes[0].status == "pass", outcomes[0].error
    assert "No module named 'tinyint'" in outcomes[1].error
    assert "No module named 'typer'" in outcomes[2].error


@pytest.mark.skipif(not _gvisor_ready(), reason="runsc and root needed")
def test_gvisor_imports_an_environments_library_that_needs_ctypes(wheelhouse):
    """gVisor starts a fresh interpreter per check, with no preload: a library that imports
    ctypes at import (pandas) failed there on every check (ctypes refused in a check). The
    backend asks each environment once what its libraries need, and the runner imports it."""
    envs.build(spec_of(wheelhouse, "needs-native"), name="native")
    from rlvr_grade.api import ScoreOptions

    with Grader(ScoreOptions(backend="gvisor", concurrency=1)) as g:
        ok, plain = g.grade([row("import needs_native\ndef f():\n    return needs_native.VALUE\n", "assert f() == 4\n", env="native"),
                             row("import ctypes\n")])
    assert ok.status == "pass", ok.error
    assert plain.status != "pass" and "ctypes" in plain.error  # the default environment needs none


def test_the_trainers_reward_functions_take_an_environment(wheelhouse):
    from rlvr_grade import close_shared, make_trl_reward, make_verl_compute_score

    envs.build(spec_of(wheelhouse, "tinyint==2.0"), name="two")
    program = "import tinyint\nV = tinyint.VALUE\n"
    try:
        reward = make_trl_reward(env="two", concurrency=1, preload="none")
        assert reward(prompts=["p"], completions=[program], tests=["assert V == 2\n"]) == [1.0]
        compute = make_verl_compute_score(env="two", concurrency=1)
        assert compute("ds", program, "assert V == 2\n") == 1.0
        assert make_verl_compute_score(concurrency=1, on_invalid_input=0.0)("ds", program, "assert V == 2\n") == 0.0
    finally:
        close_shared()


def test_doctor_probes_a_check_in_an_environment_and_lists_its_root(wheelhouse):
    from rlvr_grade.doctor import diagnose

    two = envs.build(spec_of(wheelhouse, "tinyint==2.0"), name="two")
    report = diagnose(env="two")
    assert report.isolation["environment"].startswith("two (")
    # Its site-packages at /env's name (the seed's world: docs/sandbox.md), from the environment's folder.
    site = "/env/" + os.path.relpath(two.site_packages, os.path.dirname(os.path.dirname(two.interpreter)))
    from rlvr_grade.sandbox.local import world_of

    if world_of(two.id, preload=()).fixed_names:
        assert any(line.startswith(f"{site}/ (directory, from {os.path.realpath(two.site_packages)}")
                   for line in report.root), report.root
    else:  # neither root nor user namespaces: the seeds start on the host, the venv at its own path
        assert any(line.startswith(os.path.realpath(two.site_packages)) for line in report.root), report.root
    assert not any("/.venv/" in line and "site-packages" in line for line in report.root)  # not the grader's


def test_a_preloaded_library_that_needs_ctypes_imports_and_one_that_can_do_without_does_not_load_it(tmp_path):
    """Raw-memory modules are blocked while an environment preloads (red team A2), but a library
    that cannot import without ctypes (pandas, scipy under gensim) must still be preloaded: in a
    check ctypes is refused to everyone, so preloaded is the only way it works. A library with a
    `try: import ctypes` (numpy) keeps the seed free of it."""
    (tmp_path / "needs_native.py").write_text("import ctypes\nVALUE = ctypes.sizeof(ctypes.c_int)\n")
    (tmp_path / "optional_native.py").write_text("try:\n    import ctypes\nexcept ImportError:\n    ctypes = None\n")
    probe = ("import sys; sys.path.insert(0, {path!r}); from rlvr_grade.sandbox.zygote import preload; "
             "done, refusal = preload([{name!r}]); print(done, refusal, 'ctypes' in sys.modules and sys.modules['ctypes'] is not None)")
    for name, loaded in (("optional_native", False), ("needs_native", True)):
        out = subprocess.run([sys.executable, "-c", probe.format(path=str(tmp_path), name=name)],
                             capture_output=True, text=True, timeout=120)
        assert out.stdout.split() == [f"['{name}']", "None", str(loaded)], out.stdout + out.stderr
    # Under --preload none the environment's libraries are still asked what they need: ctypes is
    # loaded, the library itself is not.
    asked = ("import sys; sys.path.insert(0, {path!r}); from rlvr_grade.sandbox.zygote import preload; "
             "done, refusal = preload([], [{name!r}]); print(done, refusal, sys.modules.get('ctypes') is not None, {name!r} in sys.modules)")
    for name, loaded in (("optional_native", False), ("needs_native", True)):
        out = subprocess.run([sys.executable, "-c", asked.format(path=str(tmp_path), name=name)],
                             capture_output=True, text=True, timeout=120)
        assert out.stdout.split() == ["[]", "None", str(loaded), "False"], out.stdout + out.stderr


@pytest.mark.parametrize("preload", [None, "none", "json"])
def test_an_environments_library_that_needs_ctypes_imports_in_a_check_whatever_the_preload(wheelhouse, preload):
    """`make bench`'s heavy imports under --preload none: 30 of 30 correct pandas programs
    failed (ctypes refused in the check), while with the default preload they passed. What an
    environment's libraries need does not depend on --preload; the candidate's own ctypes is
    still no business of a check in an environment that needs none (tests/hacks)."""
    envs.build(spec_of(wheelhouse, "needs-native"), name="native")
    with Grader(env="native", concurrency=1, preload=preload) as g:
        [ok] = g.grade([row("import needs_native\ndef f():\n    return needs_native.VALUE\n", "assert f() == 4\n")])
    assert ok.status == "pass", ok.error
