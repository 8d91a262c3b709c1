"""Environments (rlvr_grade/envs): specs, locks, building into content-addressed folders, the
store's references, the default environment, the cache key, and the CLI. Built offline from
wheels made in the tests (the `wheelhouse` fixture); one test uses the real registry and skips
when it cannot be reached."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr_grade import envs
from rlvr_grade.envs import installer
from rlvr_grade.envs.spec import EnvSpec
from tests.conftest import ROOT, read_jsonl, write_jsonl


def offline(wheelhouse: Path) -> tuple[str, ...]:
    return ("--no-index", "--find-links", str(wheelhouse))


def spec_of(wheelhouse: Path, *packages: str, **kw) -> EnvSpec:
    return EnvSpec.parse(packages=list(packages), index=offline(wheelhouse), **kw)


def run_in(env: envs.Environment, code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([env.interpreter, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})


# -- specs ------------------------------------------------------------------------------------


def test_a_requirements_file_is_read_like_pips(tmp_path):
    (tmp_path / "base.txt").write_text("numpy>=1.26  # comment\n")
    (tmp_path / "wheels").mkdir()
    req = tmp_path / "reqs.txt"
    req.write_text("# a dataset's environment\n-r base.txt\n--find-links wheels\nPandas[Excel] \\\n  ==2.2.3\n\nsortedcontainers\n")
    spec = EnvSpec.parse(str(req), packages=["Py_Yaml>=6"])
    assert spec.requirements == ("numpy>=1.26", "pandas[excel]==2.2.3", "py-yaml>=6", "sortedcontainers")
    assert spec.index == ("--find-links", str(tmp_path / "wheels"))
    assert spec.source == str(req)
    assert spec.names() == ("numpy", "pandas", "py-yaml", "sortedcontainers")


@pytest.mark.parametrize(
    "line, says",
    [
        ("-e ./mypkg", "editable"),
        ("mypkg @ https://example.invalid/mypkg-1.0.tar.gz", "direct URL"),
        ("numpy >=> 1", "does not parse"),
        ("--trusted-host foo", "unsupported option"),
    ],
)
def test_a_line_that_cannot_be_pinned_is_named(tmp_path, line, says):
    req = tmp_path / "reqs.txt"
    req.write_text(f"numpy\n{line}\n")
    with pytest.raises(envs.SpecError) as err:
        EnvSpec.parse(str(req))
    assert says in str(err.value)
    assert err.value.requirement == line


def test_a_spec_without_packages_or_with_a_bad_python_is_refused():
    with pytest.raises(envs.SpecError, match="names no package"):
        EnvSpec.parse(packages=[])
    with pytest.raises(envs.SpecError, match="not a version"):
        EnvSpec.parse(packages=["numpy"], python="three")
    assert EnvSpec.parse(packages=["numpy"], python="python3.12").python == "3.12"


def test_pytest_is_added_unless_the_spec_names_it():
    from rlvr_grade.envs.spec import grader_pytest_version

    assert EnvSpec.parse(packages=["numpy"]).effective_requirements() == ("numpy", f"pytest=={grader_pytest_version()}")
    assert EnvSpec.parse(packages=["numpy", "pytest==8.3.4"]).effective_requirements() == ("numpy", "pytest==8.3.4")


@settings(max_examples=50, deadline=None)
@given(st.permutations(["numpy>=1", "pandas==2.2.3", "six", "attrs<24"]), st.integers(0, 3))
def test_a_spec_key_does_not_depend_on_line_order_or_repeats(lines, dup):
    one = EnvSpec.parse(packages=["numpy>=1", "pandas==2.2.3", "six", "attrs<24"])
    other = EnvSpec.parse(packages=list(lines) + list(lines[:dup]))
    assert one.key("3.11") == other.key("3.11")
    assert one.key("3.11") != one.key("3.12")
    assert one.key("3.11") != EnvSpec.parse(packages=["numpy>=1", "pandas==2.2.4", "six", "attrs<24"]).key("3.11")


# -- building ---------------------------------------------------------------------------------


def test_an_environment_holds_its_lock_and_only_its_packages(wheelhouse, tmp_path):
    said: list[str] = []
    env = envs.build(spec_of(wheelhouse, "tinyint", "my-widgets"), progress=said.append)
    assert env.id == env.lock.hash() and os.path.basename(env.path) == env.id
    assert env.lock.version_of("tinyint") == "2.0"  # the newest the sources have
    assert env.lock.version_of("pytest") is not None  # added: pytest-style rows need it
    assert env.lock.python == ".".join(map(str, sys.version_info[:3]))
    assert dict(env.provides)["my-widgets"] == ("_widgets_speedups", "widgets")  # from RECORD
    assert env.requested == ("my-widgets", "tinyint")
    assert env.preload == ("tinyint", "widgets")  # what the spec names, public names only
    assert any("resolving" in m for m in said) and any(m.startswith("built") for m in said)
    with open(os.path.join(env.path, "env.json")) as fh:
        record = json.load(fh)
    assert record["lock"]["distributions"]["tinyint"] == "2.0"
    proc = run_in(env, "import tinyint, widgets, pytest; print(tinyint.VALUE)", tmp_path)
    assert proc.stdout.strip() == "2", proc.stderr
    # The grader's own packages are not in it (phase B also keeps its root to the environment).
    for module in ("rlvr_grade", "typer", "orjson", "rich"):
        proc = run_in(env, f"import {module}", tmp_path)
        assert proc.returncode != 0 and "ModuleNotFoundError" in proc.stderr, module


def test_one_lock_is_built_once_and_another_lock_is_another_environment(wheelhouse, monkeypatch):
    installs: list[str] = []
    real = installer.install_exact
    monkeypatch.setattr(installer, "install_exact", lambda venv, pins, index: (installs.append(venv), real(venv, pins, index)))
    a = envs.build(spec_of(wheelhouse, "tinyint"))
    # A different spec that resolves to the same lock: the same environment, no install.
    b = envs.build(spec_of(wheelhouse, "tinyint>=2", "tinyint<3"))
    assert a.id == b.id and len(installs) == 1
    c = envs.build(spec_of(wheelhouse, "tinyint==1.0"))
    assert c.id != a.id and c.lock.version_of("tinyint") == "1.0" and len(installs) == 2
    assert sorted(e.id for e in envs.list_envs() if not e.default) == sorted({a.id, c.id})


def test_a_built_spec_is_found_again_without_resolving(wheelhouse, monkeypatch):
    spec = spec_of(wheelhouse, "tinyint")
    built = envs.build(spec)

    def no_network(*a, **k):
        raise AssertionError("resolved again")

    monkeypatch.setattr(installer, "compile_pins", no_network)
    assert envs.ensure(spec).id == built.id
    assert envs.lookup(spec_of(wheelhouse, "tinyint==1.0")) is None


def test_concurrent_builds_of_one_spec_install_it_once(wheelhouse, monkeypatch):
    installs: list[str] = []
    real = installer.install_exact
    monkeypatch.setattr(installer, "install_exact", lambda venv, pins, index: (installs.append(venv), real(venv, pins, index)))
    spec = spec_of(wheelhouse, "needs-tinyint")
    ids: list[str] = []
    threads = [threading.Thread(target=lambda: ids.append(envs.build(spec).id)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == 1 and len(ids) == 3
    assert len(installs) == 1


def test_a_failed_build_leaves_nothing_and_a_killed_ones_leftovers_are_swept(wheelhouse, monkeypatch, tmp_path):
    root = Path(envs.envs_root())
    real = installer.install_exact

    def broken(venv, pins, index):
        Path(venv, "half-installed").write_text("x")
        raise envs.EnvError("installing the environment failed: disk full")

    monkeypatch.setattr(installer, "install_exact", broken)
    with pytest.raises(envs.EnvError, match="disk full"):
        envs.build(spec_of(wheelhouse, "tinyint"))
    assert [e for e in envs.list_envs() if not e.default] == []
    assert not [p for p in root.iterdir() if p.name.startswith(".build-")]
    monkeypatch.setattr(installer, "install_exact", real)
    # What a SIGKILLed build leaves: a .build-<pid>- folder of a process that no longer runs.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftover = root / f".build-{dead.pid}-abc"
    (leftover / "venv").mkdir(parents=True)
    mine = root / f".build-{os.getpid()}-live"  # a live build's folder stays
    mine.mkdir()
    envs.build(spec_of(wheelhouse, "tinyint"))
    assert not leftover.exists() and mine.exists()


def test_a_spec_that_does_not_resolve_names_the_requirement(wheelhouse):
    with pytest.raises(envs.SpecError) as err:
        envs.build(spec_of(wheelhouse, "tinyint", "nosuchpkg==1.0"))
    assert err.value.requirement == "nosuchpkg==1.0" and "nosuchpkg" in str(err.value)
    with pytest.raises(envs.SpecError) as err:
        envs.build(spec_of(wheelhouse, "tinyint==1.0", "needs-tinyint"))
    assert err.value.requirement in ("needs-tinyint", "tinyint==1.0")
    assert [e for e in envs.list_envs() if not e.default] == []


def test_a_python_version_the_machine_lacks_is_an_error(wheelhouse):
    with pytest.raises(envs.EnvError, match=r"no Python 2\.7"):
        envs.build(spec_of(wheelhouse, "tinyint", python="2.7"))


# -- references -------------------------------------------------------------------------------


def test_references_name_id_prefix_file_and_default(wheelhouse, tmp_path):
    req = tmp_path / "reqs.txt"
    req.write_text(f"--no-index\n--find-links {wheelhouse}\ntinyint==1.0\n")
    with pytest.raises(envs.EnvNotFound, match="not built yet"):
        envs.resolve(str(req), build=False)
    env = envs.resolve(str(req))  # built on first use
    assert env.lock.version_of("tinyint") == "1.0"
    named = envs.build(EnvSpec.parse(str(req)), name="ds-one")
    assert named.id == env.id and named.names == ("ds-one",)
    assert envs.resolve("ds-one").id == env.id
    assert envs.resolve(env.id).id == env.id
    assert envs.resolve(env.id[:6]).id == env.id
    assert envs.resolve(str(req), build=False).id == env.id
    assert envs.resolve("default").default
    for nothing in ("no-such-env", "abcdef12", "../etc"):
        with pytest.raises(envs.EnvNotFound):
            envs.resolve(nothing, build=False)
    for bad in ("deadbeef", "default", "a/b"):
        with pytest.raises(envs.EnvError, match="cannot name"):
            envs.build(EnvSpec.parse(str(req)), name=bad)


def test_rm_removes_the_environment_and_what_points_at_it(wheelhouse):
    spec = spec_of(wheelhouse, "tinyint")
    env = envs.build(spec, name="mine")
    gone = envs.remove("mine")
    assert gone.id == env.id and not os.path.exists(env.path)
    for ref in ("mine", env.id):
        with pytest.raises(envs.EnvNotFound):
            envs.resolve(ref, build=False)
    assert envs.lookup(spec) is None
    assert not [p for p in Path(envs.envs_root()).iterdir() if p.name.startswith(".trash-")]


def test_an_edited_record_is_refused(wheelhouse):
    env = envs.build(spec_of(wheelhouse, "tinyint"))
    record = Path(env.path, "env.json")
    data = json.loads(record.read_text())
    data["lock"]["distributions"]["tinyint"] = "9.9"
    record.write_text(json.dumps(data))
    with pytest.raises(envs.EnvError, match="hashes to"):
        envs.load(env.id)


def test_a_build_is_reproducible(wheelhouse, tmp_path, monkeypatch):
    first = envs.build(spec_of(wheelhouse, "needs-tinyint", "my-widgets"))
    monkeypatch.setenv("RLVR_GRADE_ENVS", str(tmp_path / "elsewhere"))
    second = envs.build(spec_of(wheelhouse, "needs-tinyint", "my-widgets"))
    assert second.path != first.path
    assert (second.id, second.files_hash, second.files) == (first.id, first.files_hash, first.files)


# -- the default environment -------------------------------------------------------------------


def test_the_default_environment_is_the_graders_pytest_closure(tmp_path):
    lock = envs.default_lock()
    names = dict(lock.distributions)
    from rlvr_grade.envs.spec import grader_pytest_version

    assert names["pytest"] == grader_pytest_version() and "pluggy" in names and "iniconfig" in names
    assert "typer" not in names and "rlvr-grade" not in names
    env = envs.default_environment()  # built offline from the grader's own files
    assert env.default and env.id == envs.default_env_id() == lock.hash()
    proc = run_in(env, "import pytest, sys; print(pytest.__version__)", tmp_path)
    assert proc.stdout.strip() == names["pytest"], proc.stderr
    assert run_in(env, "import typer", tmp_path).returncode != 0
    assert envs.default_environment().path == env.path  # built once


def test_the_default_lock_is_remembered_until_an_install_changes_a_path_folder(tmp_path, monkeypatch):
    from rlvr_grade.envs import lock as lock_mod

    lock_mod.default_lock.cache_clear()
    first = lock_mod.default_lock()
    memo = Path(envs.envs_root(), ".default-lock.json")
    data = json.loads(memo.read_text())
    data["lock"]["distributions"]["pytest"] = "0.0-remembered"
    memo.write_text(json.dumps(data))
    lock_mod.default_lock.cache_clear()
    assert lock_mod.default_lock().version_of("pytest") == "0.0-remembered"  # the memo is used
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    lock_mod.default_lock.cache_clear()
    assert lock_mod.default_lock() == first  # sys.path changed: read again
    lock_mod.default_lock.cache_clear()


# -- the cache key ----------------------------------------------------------------------------


def test_the_environment_is_in_every_cache_key(monkeypatch):
    from rlvr_grade import cache
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import Rollout

    check = build_check(Rollout(0, {"completion": "x = 1", "tests": "assert x == 1"}), CheckOptions())
    runtime = cache.runtime_fingerprint({"backend": "t"})
    assert runtime["default_env"] == envs.default_env_id()
    key = cache.cache_key(check, RewardConfig(), runtime)
    assert cache.cache_key(check.__class__(**{**check.__dict__, "env": "a" * 64}), RewardConfig(), runtime) != key
    monkeypatch.setattr("rlvr_grade.envs.lock.default_env_id", lambda: "f" * 64)
    assert cache.cache_key(check, RewardConfig(), cache.runtime_fingerprint({"backend": "t"})) != key


def test_a_rows_env_that_names_nothing_is_invalid_input_and_the_others_are_graded():
    from rlvr_grade.api import Grader

    rows = [
        {"completion": "x = 1", "tests": "assert x == 1", "env": "no-such-env"},
        {"completion": "x = 1", "tests": "assert x == 1", "env": 7},
        {"completion": "x = 1", "tests": "assert x == 1", "env": "default"},
        {"completion": "x = 1", "tests": "assert x == 1"},
    ]
    with Grader() as g:
        keys = [g.cache_key(g._rollouts([r]).__next__()) for r in rows]
        outcomes = g.grade(rows)
    assert [o.status for o in outcomes[:2]] == ["invalid_input", "invalid_input"]
    assert "env column 'env'" in outcomes[0].error and "no-such-env" in outcomes[0].error
    assert "int" in outcomes[1].error
    assert keys[2] == keys[3]  # "default" is the default environment
    assert outcomes[2].status == "pass" and outcomes[3].status == "pass"


def test_a_rows_env_value_never_opens_a_file(tmp_path):
    from rlvr_grade.api import Grader

    secret = tmp_path / "secret.txt"
    secret.write_text("the-answer-is-42\n")  # parses as a requirement line
    with Grader() as g:
        [outcome] = g.grade([{"completion": "x = 1", "tests": "assert x == 1", "env": str(secret)}])
    assert outcome.status == "invalid_input" and "names no environment" in outcome.error
    assert "the-answer-is-42" not in outcome.error and "not built" not in outcome.error


def test_a_backend_that_cannot_run_environments_never_runs_a_row_in_the_wrong_one(wheelhouse):
    from rlvr_grade.api import Grader
    from rlvr_grade.sandbox.local import LocalBackend

    class NoEnvironments(LocalBackend):
        environments = False

    env = envs.build(spec_of(wheelhouse, "tinyint"), name="ti")
    row = {"completion": "x = 1", "tests": "assert x == 1", "env": "ti"}
    with Grader(backend=NoEnvironments(concurrency=1)) as g:
        [outcome] = g.grade([row])
    assert outcome.status == "sandbox_error" and env.short_id in outcome.error and outcome.reward is None
    with pytest.raises(envs.EnvError, match="cannot run checks in an environment"):
        Grader(env="ti", backend=NoEnvironments(concurrency=1)).environment  # noqa: B018


def test_a_missing_module_names_the_environment_that_provides_it(wheelhouse, tmp_path):
    from rlvr_grade.api import Grader

    row = {"completion": "import tinyint\nV = tinyint.VALUE\n", "tests": "assert V == 2\n"}
    with Grader(cache=str(tmp_path / "c.sqlite")) as g:
        [before] = g.grade([row])
    assert before.status == "runtime_error" and "--env" not in before.error
    envs.build(spec_of(wheelhouse, "tinyint"), name="ti")
    with Grader(cache=str(tmp_path / "c.sqlite")) as g:
        [after] = g.grade([row])
        stored = g.cache.get(g.cache_key(next(g._rollouts([row]))))
    assert after.cached and "No module named 'tinyint'" in after.error
    assert after.error.endswith("(environment ti provides tinyint: --env ti)")
    assert stored.error == before.error  # the hint is added on the way out, never cached


_F = "def f(x):\n    return x + 1\n"
_UT = ("import unittest\nfrom solution import f\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n"
       "        self.assertEqual(f(1), 2)\n")
_CALL = json.dumps([{"args": [1], "output": 2}])
# (style, row): the module missing in the program, in the tests, or inside a test, in every style
MISSING_MODULE_ROWS = {
    "asserts/program": (None, {"completion": "import tinyint\n" + _F, "tests": "assert f(1) == 2\n"}),
    "asserts/tests": (None, {"completion": _F, "tests": "import tinyint\nassert f(1) == 2\n"}),
    "humaneval/in-check": (None, {"completion": _F, "tests": "def check(c):\n    import tinyint\n    assert c(1) == 2\n\n\ncheck(f)\n"}),
    "pytest/program": (None, {"completion": "import tinyint\n" + _F,
                              "tests": "from solution import f\n\n\ndef test_a():\n    assert f(1) == 2\n"}),
    "pytest/tests": (None, {"completion": _F, "tests": "import tinyint\nfrom solution import f\n\n\ndef test_a():\n    assert f(1) == 2\n"}),
    "pytest/in-test": (None, {"completion": _F, "tests": "from solution import f\n\n\ndef test_a():\n    import tinyint\n    assert f(1) == 2\n"}),
    "unittest/program": (None, {"completion": "import tinyint\n" + _F, "tests": _UT}),
    "unittest/tests": (None, {"completion": _F, "tests": "import tinyint\n" + _UT}),
    "call/program": ("call", {"completion": "import tinyint\n" + _F, "tests": _CALL, "fn_name": "f"}),
    "call/in-call": ("call", {"completion": "def f(x):\n    import tinyint\n    return x + 1\n", "tests": _CALL, "fn_name": "f"}),
    "stdio/program": ("stdio", {"completion": "import tinyint\nprint(int(input()) + 1)\n",
                                "tests": json.dumps({"inputs": ["1\n"], "outputs": ["2\n"]})}),
}


def test_a_missing_module_says_so_and_names_its_environment_in_every_style(wheelhouse):
    """A check that fails only for a missing module says `No module named 'X'` and which --env
    provides it, whichever style and wherever the import is: a failed import of the tests (a
    pytest collection error, a set-up step of asserts) used to read "not reported" or "exited
    before the tests finished", and no hint could show."""
    from rlvr_grade.api import Grader, ScoreOptions
    from rlvr_grade.checks import CheckOptions

    envs.build(spec_of(wheelhouse, "tinyint"), name="ti")
    got = {}
    for style in (None, "call", "stdio"):
        names = [n for n, (s, _) in MISSING_MODULE_ROWS.items() if s == style]
        opts = ScoreOptions(concurrency=2, checks=CheckOptions(test_style=style or "auto"))
        with Grader(opts) as g:
            got.update(zip(names, g.grade([MISSING_MODULE_ROWS[n][1] for n in names]), strict=True))
    bad = {n: (o.status, o.error) for n, o in got.items()
           if o.reward != 0.0 or "No module named 'tinyint'" not in o.error
           or not o.error.endswith("(environment ti provides tinyint: --env ti)")}
    assert not bad


# -- the CLI ----------------------------------------------------------------------------------


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr_grade", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=dict(os.environ))


def test_cli_env_build_list_show_rm(wheelhouse, tmp_path):
    req = tmp_path / "reqs.txt"
    req.write_text("tinyint==1.0\nmy-widgets\n")
    built = cli("env", "build", str(req), "-p", "needs-tinyint", "--no-index", "-f", str(wheelhouse), "--name", "ds")
    # tinyint==1.0 and needs-tinyint (tinyint>=2) conflict: exit 2, named, nothing built.
    assert built.returncode == 2 and "tinyint" in built.stderr and "Error:" in built.stderr
    built = cli("env", "build", str(req), "--no-index", "-f", str(wheelhouse), "--name", "ds")
    assert built.returncode == 0, built.stderr
    env_id = built.stdout.strip()
    assert len(env_id) == 64 and "resolving" in built.stderr and "built" in built.stderr
    listed = cli("env", "list")
    assert env_id[:12] in listed.stdout and "ds" in listed.stdout
    assert [e["id"] for e in json.loads(cli("env", "list", "--json").stdout) if not e["default"]] == [env_id]
    shown = cli("env", "show", "ds")
    assert "tinyint==1.0" in shown.stdout and "preload      tinyint, widgets" in shown.stdout
    assert json.loads(cli("env", "show", env_id[:8], "--json").stdout)["lock"]["distributions"]["tinyint"] == "1.0"
    missing = cli("env", "show", "nope")
    assert missing.returncode == 2 and "names no environment" in missing.stderr
    removed = cli("env", "rm", "ds")
    assert removed.returncode == 0 and env_id[:12] in removed.stderr
    assert [e for e in json.loads(cli("env", "list", "--json").stdout) if not e["default"]] == []


def test_score_with_an_env_that_does_not_resolve_is_exit_2_and_writes_nothing(wheelhouse, tmp_path):
    rows = write_jsonl(tmp_path / "rows.jsonl", [{"completion": "x = 1", "tests": "assert x == 1"}])
    out = tmp_path / "out.jsonl"
    req = tmp_path / "reqs.txt"
    req.write_text(f"--no-index\n--find-links {wheelhouse}\ntinyint\nnot-a-real-package==3\n")
    proc = cli("score", str(rows), "-o", str(out), "--env", str(req))
    assert proc.returncode == 2, proc.stderr
    assert "not-a-real-package==3" in proc.stderr
    assert not out.exists()
    proc = cli("score", str(rows), "-o", str(out), "--env", "nothing-by-this-name")
    assert proc.returncode == 2 and "names no environment" in proc.stderr and not out.exists()


def test_score_rows_with_an_unknown_env_column_value(tmp_path):
    rows = write_jsonl(tmp_path / "rows.jsonl", [
        {"completion": "x = 1", "tests": "assert x == 1", "env": "unknown"},
        {"completion": "x = 1", "tests": "assert x == 1", "env": None},
    ])
    out = tmp_path / "out.jsonl"
    proc = cli("score", str(rows), "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    got = read_jsonl(out)
    assert [r["status"] for r in got] == ["invalid_input", "pass"]
    assert "'unknown' names no environment" in got[0]["error"]


# -- the real registry (skipped offline) ------------------------------------------------------


@pytest.mark.network
def test_a_real_build_from_the_package_index():
    try:
        env = envs.build(EnvSpec.parse(packages=["six==1.17.0"]))
    except envs.EnvError as exc:
        if any(w in str(exc).lower() for w in ("connect", "dns", "network", "fetch", "timed out", "offline")):
            pytest.skip(f"the package index is not reachable: {exc}")
        raise
    assert env.lock.version_of("six") == "1.17.0" and env.preload == ("six",)


def test_the_stdlib_a_check_is_shown_is_what_the_folder_held_when_the_environment_was_built(tmp_path):
    """envs.stdlib_snapshot: the base interpreter's stdlib as built, its own site-packages left
    out and bytecode only beside a source; a file put into the stdlib folder afterwards (an
    answer file, or a .pyc of no module) is not in it (issue 16: the stdlib by allowlist)."""
    import sysconfig
    import uuid

    env = envs.default_environment()
    stdlib, snapshot = envs.stdlib_snapshot(env)
    assert stdlib == os.path.realpath(sysconfig.get_paths()["stdlib"]) and snapshot == os.path.join(env.path, "stdlib")
    for name in ("os.py", "json/__init__.py", "lib-dynload"):
        assert os.path.exists(os.path.join(snapshot, name)), name
    assert not os.path.exists(os.path.join(snapshot, "site-packages"))
    assert all(f.split(".", 1)[0] + ".py" in os.listdir(os.path.join(snapshot, "json"))
               for f in os.listdir(os.path.join(snapshot, "json", "__pycache__")))
    token = f"rlvr-answer-{uuid.uuid4().hex[:12]}"
    planted = [Path(stdlib) / f"{token}.ans", Path(stdlib) / "__pycache__" / f"{token}.cpython-311.pyc"]
    try:
        for p in planted:
            p.write_text("42")
        assert envs.stdlib_snapshot(env) == (stdlib, snapshot)
        assert not any(token in f for _d, _s, files in os.walk(snapshot) for f in files)
        # An environment without one (built before snapshots) gets one at its first use: then
        # the folder's files at that time, bytecode still only beside a source.
        import shutil

        os.unlink(snapshot) if os.path.islink(snapshot) else shutil.rmtree(snapshot)  # the session's: a link
        os.unlink(os.path.join(env.path, "stdlib.json"))
        assert envs.stdlib_snapshot(env) == (stdlib, snapshot)
        assert not os.path.exists(os.path.join(snapshot, "__pycache__", f"{token}.cpython-311.pyc"))
    finally:
        for p in planted:
            p.unlink(missing_ok=True)


def test_an_environments_bytecode_names_the_env_folder_not_its_build_folder(tmp_path):
    """Every cached .pyc of an environment carries the name a check sees its module by
    (/env/...), not the folder an installer compiled it in; bytecode naming anything else is
    dropped, a sourceless module's .pyc (the module itself) is kept, and the stdlib venv's
    `command` line (the build folder) leaves pyvenv.cfg."""
    import marshal
    import py_compile

    from rlvr_grade.envs import store

    venv = tmp_path / "venv"
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (site / "pkg").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = /usr/bin\ncommand = /usr/bin/python3 -m venv {tmp_path}/venv\n")
    (site / "pkg" / "__init__.py").write_text("X = 1\n")
    py_compile.compile(str(site / "pkg" / "__init__.py"), dfile=str(site / "pkg" / "__init__.py"), doraise=True)
    orphan = site / "pkg" / "__pycache__" / f"gone.{sys.implementation.cache_tag}.pyc"
    orphan.write_bytes((site / "pkg" / "__pycache__" / f"__init__.{sys.implementation.cache_tag}.pyc").read_bytes())
    sourceless = site / "closed.pyc"
    py_compile.compile(str(site / "pkg" / "__init__.py"), cfile=str(sourceless), dfile="/build/closed.py", doraise=True)
    store._name_bytecode(str(tmp_path), sys.executable)
    cached = site / "pkg" / "__pycache__" / f"__init__.{sys.implementation.cache_tag}.pyc"
    named = f"/env/{site.relative_to(venv)}/pkg/__init__.py"
    assert marshal.loads(cached.read_bytes()[16:]).co_filename == named
    assert not orphan.exists() and sourceless.exists()
    assert "command" not in (venv / "pyvenv.cfg").read_text()
    assert json.loads((tmp_path / "bytecode.json").read_text())["dropped"] == 1
