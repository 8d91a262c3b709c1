"""Reward fidelity: the hack corpus scores 0 under every test style, the honest-but-unusual set
scores 1, equality cannot be bent, flags are raised, infrastructure failures are never a 0, and
grading is deterministic. Everything runs through the real local sandbox."""

from __future__ import annotations

import ast
import os
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions
from rlvr_grade.checks.flags import FLAGS, scan
from rlvr_grade.cli import app
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Limits
from tests.conftest import ROOT, TESTS, read_jsonl, requires_root, write_jsonl

pytestmark = requires_root
HACKS = TESTS / "hacks"
HONEST = HACKS / "honest"

ASSERTS = """\
assert f(1) == 2
assert f(41) == 42
assert abs(f(0.5) - 1.5) < 1e-9
assert f(0.25) == 1.25
assert f(-3) == -2
assert f(200) in [201]
"""
HUMANEVAL = """\
def check(candidate):
    assert candidate(1) == 2
    assert candidate(41) == 42
    assert abs(candidate(0.5) - 1.5) < 1e-9
    assert candidate(0.25) == 1.25
    assert candidate(-3) == -2


check(f)
"""
PYTEST = """\
from solution import *


def test_int():
    assert f(1) == 2
    assert f(41) == 42


def test_float():
    assert abs(f(0.5) - 1.5) < 1e-9
    assert f(0.25) == 1.25


def test_neg():
    assert f(-3) == -2
    assert f(200) in [201]
"""
STYLES = {"asserts": ASSERTS, "humaneval": HUMANEVAL, "pytest": PYTEST}


def _fixture_tests(source: str) -> dict[str, str]:
    """A fixture may carry its own TESTS_ASSERTS / TESTS_HUMANEVAL / TESTS_PYTEST (read
    statically, not run). TESTS_HUMANEVAL is a `check(candidate)` and its call; without it the
    humaneval style runs TESTS_ASSERTS too."""
    own = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Constant):
            own[node.targets[0].id] = node.value.value
    styles = {}
    if "TESTS_ASSERTS" in own:
        styles["asserts"] = styles["humaneval"] = own["TESTS_ASSERTS"]
    if "TESTS_HUMANEVAL" in own:
        styles["humaneval"] = own["TESTS_HUMANEVAL"]
    if "TESTS_PYTEST" in own:
        styles["pytest"] = own["TESTS_PYTEST"]
    return styles


def _rows(folder: Path) -> list[dict]:
    rows = []
    for path in sorted(folder.glob("*.py")):
        source = path.read_text()
        own = _fixture_tests(source)
        for style, tests in STYLES.items():
            rows.append({
                "name": path.stem,
                "style": style,
                "completion": source,
                "tests": own.get(style, tests),
            })
    return rows


@pytest.fixture(scope="module")
def grader(numpy_env):
    # numpy's environment: honest completions and hacks that use numpy meet it as a dataset would.
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=2.0)), concurrency=2, retry_delay=0.05, env=numpy_env)
    with Grader(opts) as g:
        yield g


@pytest.fixture(scope="module")
def hack_results(grader):
    rows = _rows(HACKS)
    return list(zip(rows, grader.grade(rows), strict=True))


@pytest.fixture(scope="module")
def honest_results(grader):
    rows = _rows(HONEST)
    return list(zip(rows, grader.grade(rows), strict=True))


def _preset_rows(folder: Path) -> list[dict]:
    """The honest fixtures that are HumanEval-preset completions too: PROMPT, TEST (the dataset's
    `check`) and ENTRY_POINT strings; the row is graded as the preset grades a dataset row."""
    rows = []
    for path in sorted(folder.glob("*.py")):
        source = path.read_text()
        own = {n.targets[0].id: n.value.value for n in ast.parse(source).body
               if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Constant)}
        if "PROMPT" in own:
            rows.append({"task_id": path.stem, "prompt": own["PROMPT"], "test": own["TEST"],
                         "entry_point": own["ENTRY_POINT"], "completion": source})
    return rows


def _grade_preset(rows: list[dict], env) -> list[tuple[str, str, str]]:
    """(name, status, error) of each row that does not score 1 under `--preset humaneval`."""
    opts = ScoreOptions(checks=CheckOptions(preset="humaneval", limits=Limits(cpu_s=2.0)), concurrency=2,
                        retry_delay=0.05, env=env)
    with Grader(opts) as g:
        return [(r["task_id"], o.status, o.error) for r, o in zip(rows, g.grade(rows), strict=True) if o.reward != 1.0]


def test_every_honest_humaneval_preset_completion_scores_one(numpy_env):
    rows = _preset_rows(HONEST)
    assert rows
    assert not _grade_preset(rows, numpy_env)


@pytest.mark.xfail(strict=True, reason="open (fidj): the tests take a HumanEval prompt's class from the prompt alone "
                   "(checks/asserts.py prompt_helpers), so the tests' instances are another class's than the "
                   "program's: isinstance in the program is False, a dataclass's __eq__ says NotImplemented; the "
                   "openai harness has one namespace, one class")
def test_a_prompts_class_is_one_class_for_the_tests_and_the_program(numpy_env):
    rows = _preset_rows(HONEST / "open")
    assert len(rows) == 1
    assert not _grade_preset(rows, numpy_env)


def test_corpus_is_not_empty():
    assert len(list(HACKS.glob("*.py"))) >= 50
    assert len(list(HONEST.glob("*.py"))) >= 10
    # the honest set's own check(candidate) variants reach the humaneval style
    assert sum(r["style"] == "humaneval" and "def check(" in r["tests"] for r in _rows(HONEST)) >= 10


def test_every_hack_scores_zero_under_every_style(hack_results):
    wins = [(r["name"], r["style"], o.status, o.tests_passed, o.error) for r, o in hack_results if o.reward != 0.0]
    assert not wins
    assert all(o.status != "sandbox_error" for _, o in hack_results)


def test_every_honest_unusual_completion_scores_one(honest_results):
    losses = [(r["name"], r["style"], o.status, o.error) for r, o in honest_results if o.reward != 1.0]
    assert not losses


@pytest.mark.parametrize(
    "name,style,needle",
    [
        # the defence that stopped the hack shows in the error: not just "wrong answer"
        ("getframe_caller_locals", "asserts", ""),
        ("patch_testreport_init", "pytest", "test runner was modified"),
        ("patch_runner_call_and_report", "pytest", "test runner was modified"),
        ("patch_function_runtest", "pytest", "test runner was modified"),
        ("patch_recorder_genuine_and_fingerprint", "pytest", "test runner was modified"),
        ("pytest_plugins_via_import_star", "pytest", "did not witness"),
        ("pytestmark_skip", "pytest", ""),
        ("collection_error_at_import", "pytest", ""),
        ("exit_os_exit_at_import", "asserts", "exited before the tests finished"),
        ("fake_passed_stdout", "pytest", "exited before the tests finished"),
        # issue 15, raw memory through numpy: the array interface's check (rlvr_harness/arrays.py)
        ("numpy_interface_address_rewrites_verdict", "asserts", "no numpy array under it"),
        ("numpy_as_strided_reaches_any_address", "humaneval", "outside the array it names"),
        ("numpy_interface_bytes_offset_escapes", "asserts", "neither an address within an array nor bytes"),
    ],
)
def test_the_defence_is_the_reason(hack_results, name, style, needle):
    [(row, outcome)] = [(r, o) for r, o in hack_results if r["name"] == name and r["style"] == style]
    assert outcome.reward == 0.0 and outcome.tests_passed == 0
    assert needle in outcome.error, outcome


def _scan_blind(name: str) -> bool:
    """A fixture says the static scan cannot see its trick with a module-level
    `STATIC_SCAN_BLIND = "why"` (the structural defence is what stops it)."""
    tree = ast.parse((HACKS / f"{name}.py").read_text())
    return any(isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "STATIC_SCAN_BLIND" for n in tree.body)


def test_hacks_are_flagged_and_honest_mostly_not(hack_results, honest_results):
    unflagged = sorted({r["name"] for r, o in hack_results if not o.flags and not _scan_blind(r["name"])})
    # A wrong answer wrapped in a class that merely claims equality is not always visible to a
    # static scan (e.g. __eq__ returning a non-constant); the structural defence handles those.
    # A collection error is not a trick the text shows. A test-file path built at run time
    # (os.path.join over sys.path, then encoded) is no literal the scan can match.
    assert set(unflagged) <= {"eq_returns_truthy_object", "collection_error_at_import", "bool_always_true",
                              "read_test_file_bytes_path"}, unflagged
    noisy = sorted({(r["name"], o.flags) for r, o in honest_results if o.flags})
    # honest code that starts python, literally prints "PASSED", imports unittest's internals,
    # reads /proc, sets its own signal timer, imports pytest itself or runs doctest (a test runner)
    # is flagged: flags are for review
    assert {n for n, _ in noisy} <= {"writes_stderr_and_forks", "prints_a_lot", "imports_asyncio_indirectly",
                                     "reads_own_status_from_proc", "signal_timer_own_deadline",
                                     "program_imports_pytest_itself", "doctest_testmod_at_module_level"}, noisy


# -- strict equality, in-process (the comparator as the rewritten asserts call it) ------------

def _registry():
    """What a check's worker vouches for: everything alive before the candidate. Taken once, at
    import, so the classes the tests below define (the liars) are nobody's the grader knows, as
    a candidate's classes are in a check."""
    from rlvr_harness import provenance

    registry = provenance.make_registry()
    registry.scan()
    return registry


_REGISTRY = _registry()


def _run_rewritten(test_src: str, env: dict) -> bool:
    from rlvr_harness import strict

    ns = {**env, "__builtins__": strict.pristine_builtins()}
    code = strict.link(compile(strict.rewrite(ast.parse(test_src)), "t", "exec"), strict.make_namespace(registry=_REGISTRY))
    try:
        exec(code, ns)
    except AssertionError:
        return False
    return True


def test_strict_equality_rejects_claims_and_keeps_honest_values():
    import collections
    from fractions import Fraction

    class Liar:
        def __eq__(self, other):
            return True

    class FakeInt(int):
        def __eq__(self, other):
            return True

    class Num(int):
        pass

    P = collections.namedtuple("P", "a b")
    assert not _run_rewritten("assert v == 3", {"v": Liar()})
    assert not _run_rewritten("assert v == 3", {"v": FakeInt(0)})
    assert _run_rewritten("assert v == 3", {"v": FakeInt(3)})  # judged by what it holds
    assert _run_rewritten("assert v == 3", {"v": Num(3)})
    assert _run_rewritten("assert v == (1, 2)", {"v": P(1, 2)})
    assert _run_rewritten("assert v == {'a': 2}", {"v": collections.Counter(a=2)})
    assert _run_rewritten("assert v == [1, 2.0]", {"v": [1, 2]})
    assert _run_rewritten("assert v == 0.3", {"v": 0.1 + 0.2})  # documented tolerance
    assert not _run_rewritten("assert v == 0.3", {"v": 0.3 + 1e-6})
    assert not _run_rewritten("assert [v] == [3]", {"v": Liar()})
    assert not _run_rewritten("assert {'k': v} == {'k': 3}", {"v": Liar()})
    assert not _run_rewritten("assert v in [1, 2, 3]", {"v": Liar()})
    assert not _run_rewritten("assert 1 < v < 3", {"v": Liar()})
    assert _run_rewritten("assert 1 < v < 3", {"v": 2})
    assert _run_rewritten("assert v is None", {"v": None})
    assert _run_rewritten("assert v == Fraction(1, 3)", {"v": Fraction(1, 3), "Fraction": Fraction})
    a, b = Liar(), Liar()
    assert _run_rewritten("assert a == b", {"a": a, "b": b})  # custom vs custom: Python semantics


def test_chained_comparison_evaluates_each_operand_once():
    calls = []

    def g():
        calls.append(1)
        return 2

    assert _run_rewritten("assert 1 < g() < 3", {"g": g})
    assert calls == [1]


def test_strict_rewrite_keeps_humaneval_canonical_passing_and_stubs_failing(grader, humaneval_problems):
    # test_humaneval.py covers 164/164 through the CLI; here the same through the strict path
    # with --reward fraction, and the wrong-type variant: returning str(answer) must fail.
    rows = [{**p, "completion": p["canonical_solution"]} for p in humaneval_problems[:40]]
    opts = ScoreOptions(checks=CheckOptions(preset="humaneval"), concurrency=2)
    with Grader(opts) as g:
        outs = g.grade(rows)
    assert [o.status for o in outs] == ["pass"] * 40


# -- flags -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "code,flag",
    [
        ("import sys\nsys.exit(0)", "exit_early"),
        ("import os as o\no._exit(0)", "exit_early"),
        ("raise SystemExit", "exit_early"),
        ("import atexit", "exit_early"),
        ("from sys import _getframe\n_getframe(1)", "frame_introspection"),
        ("import inspect\ninspect.stack()", "frame_introspection"),
        ("def f(e):\n    return e.__traceback__.tb_frame", "frame_introspection"),
        ("import gc\ngc.get_referrers(1)", "gc_introspection"),
        ("import _pytest.runner", "test_runner_tampering"),
        ("pytestmark = 1", "test_runner_tampering"),
        ("import sys\nsys.modules['json'] = 1", "sys_modules_tampering"),
        ("import builtins\nbuiltins.abs = len", "builtins_patching"),
        ("class A:\n    def __eq__(self, o):\n        return True", "always_equal"),
        ("class A:\n    __eq__ = lambda s, o: True", "always_equal"),
        ("import sys\nsys.settrace(None)", "trace_hook"),
        ("import signal\nsignal.alarm(1)", "signal_handler"),
        ("open('/tmp/t/test_solution.py').read()", "reads_test_files"),
        ("open('conftest.py', 'w')", "reads_test_files"),
        ("open('/proc/self/fd/3')", "reads_proc"),
        ("import ctypes", "ctypes"),
        ("import subprocess\nsubprocess.run(['python'])", "subprocess_python"),
        ("import os\nos.write(7, b'x')", "fd_writes"),
        ("print('4 passed in 0.1s')", "fake_test_output"),
        ("def f(:\n    sys._getframe(1)", "frame_introspection"),  # does not parse: regex fallback
        ("def f(:\n    os._exit(0)", "exit_early"),
    ],
)
def test_static_scan_flags(code, flag):
    assert flag in FLAGS
    assert flag in scan(code)


def test_static_scan_is_quiet_on_plain_code():
    assert scan("def f(x):\n    return sorted(x)[::-1]\n") == ()


def test_on_suspicious_zero_zeroes_flagged_rewards_only(tmp_path):
    rows = [
        {"completion": "import sys\ndef f(x):\n    return x + 1\nprint(sys._getframe)\n", "tests": ASSERTS, "k": "flagged"},
        {"completion": "def f(x):\n    return x + 1\n", "tests": ASSERTS, "k": "clean"},
    ]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = {}
    for mode in ("flag", "zero"):
        dst = tmp_path / f"{mode}.jsonl"
        res = CliRunner().invoke(app, ["score", str(src), "-o", str(dst), "-q", "-j", "2", "--on-suspicious", mode,
                                       "--summary-json", str(tmp_path / f"{mode}.json")])
        assert res.exit_code == 0, res.output
        out[mode] = {r["k"]: r for r in read_jsonl(dst)}
    # sys._getframe printed (not called) is still flagged; the check itself passes
    assert out["flag"]["flagged"]["flags"] == ["frame_introspection"]
    assert out["flag"]["flagged"]["reward"] == 1.0
    assert out["zero"]["flagged"]["reward"] == 0.0
    assert out["zero"]["flagged"]["status"] == "pass"  # status says what happened
    assert out["zero"]["clean"]["reward"] == 1.0 and out["zero"]["clean"]["flags"] == []
    import json

    assert json.loads((tmp_path / "zero.json").read_text())["flagged"] == 1


# -- infrastructure failures are never a 0 -----------------------------------------------------

def test_killed_zygote_mid_check_is_retried_and_then_passes():
    slow = "import time\n_t = time.process_time()\nwhile time.process_time() - _t < 0.8:\n    pass\ndef f(x):\n    return x + 1\n"
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=5.0)), concurrency=1, retries=3, retry_delay=0.05)
    with Grader(opts) as g:
        slot = g.backend._slots[0]
        victim = slot.proc.pid
        killed = threading.Event()

        def killer():
            time.sleep(0.3)  # the check is running inside the zygote's child by now
            os.kill(victim, 9)
            killed.set()

        t = threading.Thread(target=killer)
        t.start()
        [outcome] = g.grade([{"completion": slow, "tests": ASSERTS}])
        t.join()
        assert killed.is_set()
        assert outcome.status == "pass" and outcome.reward == 1.0
        assert g.backend._slots[0].proc.pid != victim  # a fresh zygote took over


def test_persistent_infrastructure_failure_is_null_never_zero(tmp_path):
    from rlvr_grade.sandbox.base import Backend
    from rlvr_grade.types import SandboxError

    class Broken(Backend):
        """A backend whose sandbox dies on every run (the contract's failure mode)."""

        name = "broken"
        calls = 0

        def start(self):
            pass

        def run(self, check):
            Broken.calls += 1
            raise SandboxError("sandbox vanished")

        def close(self):
            pass

        def fingerprint(self):
            return {}

        def isolation(self):
            return {}

    opts = ScoreOptions(retries=3, retry_delay=0.01, concurrency=1)
    with Grader(opts, backend=Broken()) as g:
        outs = g.grade([{"completion": "def f(x):\n    return x + 1\n", "tests": ASSERTS}] * 2)
    assert [(o.status, o.reward) for o in outs] == [("sandbox_error", None)] * 2
    assert Broken.calls == 6  # bounded: 3 attempts per row

    from rlvr_grade.summary import Summary

    s = Summary()
    for o in outs:
        s.add(o)
    d = s.to_dict()
    assert d["statuses"]["sandbox_error"] == 2
    assert d["pass_rate"] == 0.0 and s.graded == 0  # counted apart, not as failures


def test_backend_that_cannot_start_exits_3_and_scores_nothing(tmp_path, monkeypatch):
    src = write_jsonl(tmp_path / "in.jsonl", [{"completion": "def f(x):\n    return x + 1\n", "tests": ASSERTS}])
    dst = tmp_path / "out.jsonl"
    # A real start-up failure: the zygote's interpreter (its environment's) does not exist.
    import dataclasses

    from rlvr_grade.sandbox import local

    real = local.world_of
    # Both names: a seed with fixed names starts the venv's interpreter as /env/bin/python (the
    # venv mounted there), one without starts `python` on the host.
    monkeypatch.setattr(local, "world_of", lambda *a, **k: dataclasses.replace(real(*a, **k), python="/nonexistent/python3",
                                                                              venv="/nonexistent/venv"))
    res = CliRunner().invoke(app, ["score", str(src), "-o", str(dst), "-q"])
    assert res.exit_code == 3, res.output
    assert not dst.exists()  # no row was scored 0


# -- determinism -------------------------------------------------------------------------------

def test_three_runs_at_concurrency_1_and_8_agree_exactly(humaneval_problems):
    # HumanEval canonical (all 164) and stubs, written out as plain asserts rows, plus corpus rows.
    rows = [{"completion": p["prompt"] + p["canonical_solution"], "tests": p["test"] + f"\ncheck({p['entry_point']})\n"}
            for p in humaneval_problems]
    rows += [{"completion": p["prompt"] + "    return None\n", "tests": p["test"] + f"\ncheck({p['entry_point']})\n"}
             for p in humaneval_problems[:20]]
    slow = {"cpu_80_percent", "signal_alarm_exit", "signal_handler_frame", "thread_patches_later", "prints_a_lot"}
    rows += [r for r in _rows(HACKS) + _rows(HONEST) if r["style"] == "humaneval" and r["name"] not in slow]
    results = []
    for workers in (1, 8):
        opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=2.0)), concurrency=workers)
        with Grader(opts) as g:
            for _ in range(3):
                results.append([(o.status, o.reward, o.tests_passed, o.tests_total) for o in g.grade(rows)])
    assert all(r == results[0] for r in results)
    assert [s for s, _, _, _ in results[0][:164]] == ["pass"] * 164


# -- expected tests and the channel ------------------------------------------------------------

def test_humaneval_check_counts_each_assert_for_fraction_rewards(humaneval_problems):
    from rlvr_harness.splitting import assert_ids

    p = humaneval_problems[0]  # has_close_elements: 7 asserts inside check()
    ids = assert_ids(p["test"] + f"\n\ncheck({p['entry_point']})\n")
    assert len(ids) == 7 and all(i.count(":") == 2 for i in ids)
    # Wrong on some inputs only: returns True whenever the list has >= 4 numbers.
    partial = "    return len(numbers) >= 4\n"
    opts = ScoreOptions(checks=CheckOptions(preset="humaneval"), reward=RewardConfig(shape="fraction"), concurrency=1)
    with Grader(opts) as g:
        [o] = g.grade([{**p, "completion": partial}])
    assert o.status == "fail" and o.tests_total == 7
    assert 0 < o.tests_passed < 7 and o.reward == o.tests_passed / 7


def test_an_assert_never_reached_after_a_crash_is_an_error_not_a_pass():
    tests = "def check(c):\n    assert c(1) == 2\n    c(None)\n    assert c(2) == 3\n\ncheck(f)\n"
    opts = ScoreOptions(reward=RewardConfig(shape="fraction"), concurrency=1)
    with Grader(opts) as g:
        [o] = g.grade([{"completion": "def f(x):\n    return x + 1\n", "tests": tests}])
    assert (o.tests_passed, o.tests_total, o.status) == (1, 2, "runtime_error")


def test_a_failure_outside_checks_own_asserts_fails_every_assert_of_that_call():
    # fraction rewards: check() has asserts of its own and calls a helper that asserts too; the
    # helper's failure (caught by the candidate here) cannot be attributed to one of check's
    # asserts, so none of those that did not fail on their own counts as passed
    tests = (
        "def helper(v):\n    assert v == 2\n\n"
        "def check(c):\n    assert c(1) == 2\n    c(1, helper)\n    assert c(2) == 3\n\ncheck(f)\n"
    )
    swallow = "def f(x, cb=None):\n    try:\n        cb and cb(x)\n    except AssertionError:\n        pass\n    return x + 1\n"
    honest = "def f(x, cb=None):\n    cb and cb(x + 1)\n    return x + 1\n"
    opts = ScoreOptions(reward=RewardConfig(shape="fraction"), concurrency=1)
    with Grader(opts) as g:
        bad, good = g.grade([{"completion": swallow, "tests": tests}, {"completion": honest, "tests": tests}])
    assert (bad.status, bad.tests_passed, bad.tests_total, bad.reward) == ("fail", 0, 2, 0.0), bad
    assert (good.status, good.tests_passed, good.reward) == ("pass", 2, 1.0), good


def test_a_crash_outside_the_asserts_inside_a_loop_fails_the_loops_assert():
    # HumanEval/32's shape: `solution = candidate(...)` inside a loop, then the assert. A crash
    # on iteration 3 must not leave the assert "passed" from iterations 1-2 (CodeGen #32/19).
    tests = (
        "def check(c):\n    for x in range(5):\n        s = c(x)\n        assert s == x + 1\n\ncheck(f)\n"
    )
    opts = ScoreOptions(concurrency=1)
    with Grader(opts) as g:
        [o] = g.grade([{"completion": "def f(x):\n    assert x < 3, 'too big'\n    return x + 1\n", "tests": tests}])
    assert o.status == "fail" and o.reward == 0.0 and o.tests_passed == 0


def _each_call(fixture: str) -> list[tuple[str, str]]:
    """(function, tests) for each top-level call of a fixture's TESTS_HUMANEVAL: the same
    tests with only that call left, so each shape is graded on its own."""
    tests = _fixture_tests((HACKS / f"{fixture}.py").read_text())["humaneval"]
    tree = ast.parse(tests)
    calls = [s for s in tree.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]
    out = []
    for call in calls:
        body = [s for s in tree.body if s not in calls or s is call]
        out.append((call.value.func.id, ast.unparse(ast.Module(body=body, type_ignores=[]))))
    return out


def test_an_assert_passes_after_a_crash_only_if_its_own_evaluation_completed_and_held():
    # issue 15 (s15j): when check() raised, an assert without a logged failure counted as passed
    # if it sat before the line the exception left check() on. The tests' own `try: ...
    # except Exception: raise AssertionError(...)`, an `except SystemExit` around a soft assert, a
    # `break` out of a loop, a `finally` or a statement that is no assert moved that line past
    # asserts that never completed (or whose last run did not): each scored 1.0 on main 295f035.
    # Now an assert passes after a crash only on its own record (strict soft()/HELD), and a call
    # that raised fails every assert when all of them held. Each shape is graded alone.
    fixtures = ["assert_crash_reraised_by_the_tests_except", "statement_in_the_tests_try_crashes_before_the_assert",
                "assert_in_a_loop_crash_reraised_after_the_loop", "exit_in_a_looped_assert_caught_after_the_loop",
                "crash_after_every_assert_held"]
    rows = [(name, fn, (HACKS / f"{name}.py").read_text(), tests) for name in fixtures for fn, tests in _each_call(name)]
    assert len(rows) == 9
    # an assert that held before the crash keeps its credit: per-assert counting stays as precise
    right_once = "def f(x):\n    if x == 1:\n        return 2\n    raise ValueError(x)\n"
    partial = [
        "def check(c):\n    assert c(1) == 2\n    assert c(41) == 42\n\ncheck(f)\n",
        "def check(c):\n    try:\n        assert c(1) == 2\n        assert c(41) == 42\n"
        "    except Exception as exc:\n        raise AssertionError(repr(exc))\n\ncheck(f)\n",
    ]
    opts = ScoreOptions(reward=RewardConfig(shape="fraction"), concurrency=2)
    with Grader(opts) as g:
        got = g.grade([{"completion": c, "tests": t} for _, _, c, t in rows]
                      + [{"completion": right_once, "tests": t} for t in partial])
    wins = [(name, fn, o.status, o.tests_passed, o.tests_total) for (name, fn, _, _), o in zip(rows, got, strict=False)
            if o.reward != 0.0 or o.status == "pass"]
    assert not wins
    assert [(o.status, o.tests_passed, o.tests_total) for o in got[len(rows):]] == [
        ("runtime_error", 1, 2), ("fail", 1, 2)], got[len(rows):]


def test_a_top_level_loop_of_asserts_is_one_test_that_must_assert():
    # rty's HONEST F: a table of cases in a top-level loop had no test id (invalid_input, 0 for
    # right code). Now the loop is test `check:<line>`; a failure anywhere in it fails it, and a
    # loop that ran none of its asserts (an empty table, or one the program's answer emptied)
    # fails: a test that asserted nothing is no pass.
    loop = "for x, y in [(1, 2), (41, 42), (-3, -2)]:\n    assert f(x) == y\n"
    driven = "for got, want in zip(f_all([1, 41, -3]), [2, 42, -2]):\n    assert got == want\n"
    right = "def f(x):\n    return x + 1\n\n\ndef f_all(xs):\n    return [f(x) for x in xs]\n"
    empty = "def f(x):\n    return x\n\n\ndef f_all(xs):\n    return []\n"
    off = "def f(x):\n    return 0 if x == 41 else x + 1\n"
    rows = [(right, loop), (right, "assert f(0) == 1\n" + loop), (right, driven), (off, loop),
            (off, "assert f(0) == 1\n" + loop), (empty, driven), (empty, "assert 1 == 1\n" + driven)]
    opts = ScoreOptions(reward=RewardConfig(shape="fraction"), concurrency=2)
    with Grader(opts) as g:
        got = g.grade([{"completion": c, "tests": t} for c, t in rows])
    assert [(o.status, o.tests_passed, o.tests_total) for o in got] == [
        ("pass", 1, 1), ("pass", 2, 2), ("pass", 1, 1), ("fail", 0, 1), ("fail", 1, 2), ("fail", 0, 1), ("fail", 1, 2)], got
    assert "ran none of its asserts" in got[5].error, got[5].error


def _ex(records, done=True):
    from rlvr_grade.types import Execution, TestRecord

    return Execution(exit_code=0, signal=None, stdout="", stderr="", cpu_s=0.0, wall_s=0.0, peak_memory_mb=0.0,
                     limit_hit=None, records=tuple(TestRecord(*r) for r in records), done=done)


def test_reports_must_cover_exactly_the_expected_tests():
    from rlvr_grade.checks.styles import verdict
    from rlvr_grade.types import Check

    check = Check(style="asserts", program="", tests="", expected_tests=("check:1", "check:2"))
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "passed")]))[0] == "pass"
    # one missing: fail; an unexpected extra pass does not stand in for it
    assert verdict(check, _ex([("check:1", "passed"), ("check:9", "passed")]))[0] == "fail"
    # all passed but the harness never said done (an exit in the middle): not a pass
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "passed")], done=False))[0] != "pass"
    # a failure under an id nobody expected (a setup step, a test discovery missed) is a failure
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "passed"), ("setup:3", "failed")]))[0] == "fail"
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "passed"), ("unattributed", "skipped")]))[0] == "fail"
    # a malformed outcome is never a pass, expected or not
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "PASSED")]))[0] != "pass"
    assert verdict(check, _ex([("check:1", "passed"), ("check:2", "passed"), ("x", None)]))[0] != "pass"
    pcheck = Check(style="pytest", program="", tests="", expected_tests=("t.py::test_a",))
    assert verdict(pcheck, _ex([("t.py::test_a", "skipped")]))[0] == "fail"
    assert verdict(pcheck, _ex([("t.py::test_a[1]", "passed"), ("t.py::test_a[2]", "failed")]))[0] == "fail"


MARKED_TESTS = """
import pytest


def test_plain():
    pass


@pytest.mark.xfail(raises=TypeError)
def test_xfail():
    pass


@pytest.mark.skip(reason="later")
def test_skip():
    pass
"""


@pytest.mark.parametrize("records,want", [
    # the text's marks: an xfailed test as declared passes, a skipped one leaves the count
    ([("plain", "passed"), ("xfail", "xfailed"), ("skip", "skipped_by_mark")], ("pass", 2, 2)),
    ([("plain", "passed"), ("xfail", "passed"), ("skip", "skipped_by_mark")], ("pass", 2, 2)),  # XPASS
    # without the mark in the text: xfailed or skipped is a failure, whoever said so
    ([("plain", "xfailed"), ("xfail", "xfailed"), ("skip", "skipped_by_mark")], ("fail", 1, 2)),
    ([("plain", "skipped_by_mark"), ("xfail", "xfailed"), ("skip", "skipped_by_mark")], ("fail", 1, 2)),
    # an xfail test skipped at run time (pytest.skip/xfail in a call) is no pass
    ([("plain", "passed"), ("xfail", "skipped"), ("skip", "skipped_by_mark")], ("fail", 1, 2)),
    # a skip-marked test that ran and failed is a failure as any other
    ([("plain", "passed"), ("xfail", "xfailed"), ("skip", "failed")], ("fail", 2, 3)),
])
def test_xfail_and_skip_count_only_where_the_tests_text_marks_them(records, want):
    from rlvr_grade.checks import pytest as pytest_style
    from rlvr_grade.types import Check
    from rlvr_harness.splitting import pytest_ids

    check = Check(style="pytest", program="", tests=MARKED_TESTS, expected_tests=tuple(pytest_ids(MARKED_TESTS)))
    v = pytest_style.verdict(check, _ex([(f"test_solution.py::test_{n}", o) for n, o in records]))
    assert (v.status, v.passed, v.total) == want, v
    every_skipped = Check(style="pytest", program="", tests=MARKED_TESTS, expected_tests=("test_solution.py::test_skip",))
    v = pytest_style.verdict(every_skipped, _ex([("test_solution.py::test_skip", "skipped_by_mark")]))
    assert v.status == "fail" and "skipped" in v.error


def test_channel_ignores_foreign_lines_and_keeps_the_worse_duplicate():
    from rlvr_grade.sandbox.zygote import parse_channel

    nonce = "ab" * 16
    data = b"\n".join([
        b"00" * 16 + b' {"ev": "test", "id": "check:1", "outcome": "passed"}',  # wrong nonce
        nonce.encode() + b' {"ev": "test", "id": "check:1", "outcome": "failed", "msg": "x"}',
        nonce.encode() + b' {"ev": "test", "id": "check:1", "outcome": "passed"}',  # forged retry
        b'{"ev": "done"}',  # no nonce
        b"1 passed in 0.01s",
    ])
    records, done, phase = parse_channel(data, nonce)
    assert [(r["id"], r["outcome"]) for r in records] == [("check:1", "failed")]
    assert done is False


def test_guard_refuses_frames_only_to_the_candidate(tmp_path):
    """In a fresh interpreter: the guard lets logging/traceback/namedtuple work from candidate
    code but refuses sys._getframe, tb_frame, gc and ctypes."""
    import subprocess
    import sys

    cand = tmp_path / "cand.py"
    cand.write_text(
        "import sys, gc, logging, traceback, collections\n"
        "def probe():\n"
        "    out = {}\n"
        "    logging.getLogger('x').warning('ok')\n"
        "    collections.namedtuple('P', 'a')\n"
        "    try:\n        1/0\n    except ZeroDivisionError:\n        out['format_exc'] = 'ZeroDivisionError' in traceback.format_exc()\n"
        "    for name, fn in [('getframe', lambda: sys._getframe(1)), ('gc', lambda: gc.get_objects()),\n"
        "                     ('walk', lambda: next(traceback.walk_stack(None))),\n"
        "                     ('tb', lambda: sys.exc_info() or (1/0))]:\n"
        "        try:\n            fn(); out[name] = 'allowed'\n        except RuntimeError:\n            out[name] = 'refused'\n"
        "    try:\n        1/0\n    except ZeroDivisionError as e:\n"
        "        try:\n            e.__traceback__.tb_frame; out['tb_frame'] = 'allowed'\n"
        "        except RuntimeError:\n            out['tb_frame'] = 'refused'\n"
        "    return out\n"
    )
    driver = (
        "import sys, json; sys.path.insert(0, %r)\n"
        "from rlvr_harness.guard import Guard\n"
        "g = Guard(); g.install()\n"
        "def run():\n    g.arm()\n    import cand\n    return cand.probe()\n"
        "print(json.dumps(run()))\n"
    ) % str(tmp_path)
    res = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=60,
                         cwd=str(ROOT))
    assert res.returncode == 0, res.stderr
    import json

    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out == {"format_exc": True, "getframe": "refused", "gc": "refused", "walk": "refused",
                   "tb": "allowed", "tb_frame": "refused"}


PROVENANCE_PROBE = r"""
import _imp, dataclasses, functools, marshal, os, sys, types

SRC = "def grab():\n    import sys\n    return sys._getframe(1)\n"
LIB = os.path.dirname(os.__file__)


def _try(fn):
    try:
        fn()
        return "allowed"
    except RuntimeError:
        return "refused"


def _named(code):
    ns = {}
    exec(code, ns)
    return ns["grab"]


class _Bait:
    pass


def probe(workdir, harness_like):
    out = {}
    for name, filename in [("library_name", os.path.join(LIB, "inspect.py")), ("tests_name", "tests.py"),
                           ("frozen_name", "<frozen rlvr>")]:
        # compile(), CodeType, marshal: any name, nothing trusted comes of it
        out["compile_" + name] = _try(lambda: _named(compile(SRC, filename, "exec"))())
        placeholder = "Q" * len(filename)
        blob = marshal.dumps(compile(SRC, placeholder, "exec")).replace(placeholder.encode(), filename.encode())
        out["marshal_" + name] = _try(lambda: _named(marshal.loads(blob))())
    code = compile(SRC, "solution_helper.py", "exec")
    _imp._fix_co_filename(code, os.path.join(LIB, "inspect.py"))
    out["fix_co_filename"] = _try(lambda: _named(code)())
    with open(os.path.join(workdir, "forged_mod.pyc"), "wb") as fh:  # a sourceless .pyc on sys.path
        import importlib.util
        fh.write(importlib.util.MAGIC_NUMBER + b"\0" * 12 + marshal.dumps(compile(SRC, os.path.join(LIB, "inspect.py"), "exec")))
    sys.path.insert(0, workdir)
    out["sourceless_pyc"] = _try(lambda: __import__("forged_mod").grab())
    # a library module first imported now is trusted (its code equals the file's), so its frame
    # APIs work for it; logging from the candidate keeps working
    import logging, colorsys
    logging.getLogger("probe").warning("ok")
    out["lazy_import_trusted"] = REGISTRY.category(colorsys.rgb_to_hls.__code__)
    @dataclasses.dataclass
    class Mine:
        x: int
    out["candidate_dataclass_code"] = REGISTRY.category(Mine.__init__.__code__)
    return out


STASH = []


def bait():
    # an object whose __del__ is a C callable (no frame of the candidate's) taking a frame
    return type("B", (_Bait,), {"__del__": functools.partial(STASH.extend, map(sys._getframe, [0]))})()
"""


def test_trust_is_by_identity_and_the_requester_names_the_access(tmp_path):
    """In a fresh interpreter with the guard armed: code the candidate makes under any trusted
    name (compile, marshal, _imp._fix_co_filename, a sourceless .pyc) gets no trust; a C
    callable of the candidate's fired inside trusted code that does not name the access gets no
    frame; a library module imported late is trusted by what it is; a dataclass the candidate
    defines has no trusted code."""
    import json
    import subprocess
    import sys

    (tmp_path / "cand.py").write_text(PROVENANCE_PROBE)
    driver = (
        "import sys, json; sys.path.insert(0, %r)\n"
        "from rlvr_harness.guard import Guard\n"
        "g = Guard(); g.install()\n"
        "def harness_like(box):\n    box.clear()\n    return len(box)\n"  # trusted code that drops the object
        "g.trust(harness_like.__code__, 2)\n"
        "def run():\n    g.arm()\n    import cand\n    cand.REGISTRY = g.registry\n"
        "    out = cand.probe(%r, harness_like)\n"
        # the object dies in trusted code called by the harness's own frame: no candidate frame
        # anywhere on the stack when the C callable asks for a frame (red-team A4)
        "    harness_like([cand.bait()])\n    out['stash'] = len(cand.STASH)\n    return out\n"
        "print(json.dumps(run()))\n"
    ) % (str(tmp_path), str(tmp_path))
    res = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=60,
                         cwd=str(ROOT))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    forged = {k: v for k, v in out.items() if k.startswith(("compile_", "marshal_", "fix_", "sourceless"))}
    assert set(forged.values()) == {"refused"}, out
    assert out["stash"] == 0, out  # the frame never reached the candidate's list
    assert out["lazy_import_trusted"] == 1 and out["candidate_dataclass_code"] == 0, out


BYTECODE_PROBE = r"""
import importlib, marshal, os, pickle, py_compile, sys, types
from concurrent.futures import ThreadPoolExecutor

CODE = (lambda: None).__code__


def _try(fn):
    try:
        fn()
        return "allowed"
    except RuntimeError:
        return "refused"


def probe(workdir):
    out = {}
    # the program's own code objects, however made: refused
    out["replace"] = _try(lambda: CODE.replace(co_code=CODE.co_code))
    fields = tuple(getattr(CODE, n) for n in (
        "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_stacksize", "co_flags",
        "co_code", "co_consts", "co_names", "co_varnames", "co_filename", "co_name", "co_qualname",
        "co_firstlineno", "co_linetable", "co_exceptiontable"))
    out["CodeType"] = _try(lambda: types.CodeType(*fields))
    with ThreadPoolExecutor(1) as pool:
        out["pool_trampoline"] = _try(lambda: pool.submit(CODE.replace, co_flags=CODE.co_flags).result())
    blob = b"ctypes\nCodeType\n" + pickle.dumps(fields, 0)[:-1] + b"R."  # types.CodeType(*fields)
    out["pickle"] = _try(lambda: pickle.loads(blob))
    out["marshal_loads"] = _try(lambda: marshal.loads(marshal.dumps(CODE)))
    # a .pyc beside the program's own module that is not its source compiled: refused
    with open(os.path.join(workdir, "own_mod.py"), "w") as fh:
        fh.write("X = 1\n")
    cached = importlib.util.cache_from_source(os.path.join(workdir, "own_mod.py"))
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    py_compile.compile(os.path.join(workdir, "own_mod.py"), cfile=cached)
    sys.path.insert(0, workdir)
    import own_mod  # the .pyc is the source compiled: it loads
    out["own_pyc"] = own_mod.X
    with open(cached, "rb") as fh:
        head = fh.read(16)
    with open(cached, "wb") as fh:
        fh.write(head + marshal.dumps(compile("X = 2\n", os.path.join(workdir, "own_mod.py"), "exec")))
    sys.modules.pop("own_mod")
    out["edited_pyc"] = _try(lambda: __import__("own_mod"))
    import runpy
    out["runpy_pyc"] = _try(lambda: runpy.run_path(cached))
    # what libraries do on the program's behalf still works: types.coroutine replaces a flag,
    # asyncio imports and runs, a library module first imported now loads from its cached bytecode
    @types.coroutine
    def legacy():
        yield
    import asyncio
    out["asyncio"] = asyncio.run(asyncio.sleep(0, result=3))
    import colorsys
    out["lazy_import"] = colorsys.rgb_to_hls(0, 0, 0)[0]
    return out
"""


def test_only_the_compilers_code_runs_no_code_object_of_the_programs_own(tmp_path):
    """CPython runs bytecode unchecked (a LOAD_CONST index past co_consts reads any address):
    a code object the program makes or unmarshals is refused, whoever calls the constructor for
    it (a pool's worker, pickle); a .pyc beside its module loads only if it is the source
    compiled; what libraries make (types.coroutine) and import still works."""
    import json
    import subprocess
    import sys

    (tmp_path / "cand.py").write_text(BYTECODE_PROBE)
    (tmp_path / "w").mkdir()
    driver = (
        "import sys, json; sys.path.insert(0, %r)\n"
        "from rlvr_harness.guard import Guard\n"
        "g = Guard(); g.install()\n"
        "def run():\n    g.arm()\n    import cand\n    return cand.probe(%r)\n"
        "print(json.dumps(run()))\n"
    ) % (str(tmp_path), str(tmp_path / "w"))
    res = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=60, cwd=str(ROOT),
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out == {"replace": "refused", "CodeType": "refused", "pool_trampoline": "refused", "pickle": "refused",
                   "marshal_loads": "refused", "own_pyc": 1, "edited_pyc": "refused", "runpy_pyc": "refused", "asyncio": 3,
                   "lazy_import": 0.0}, out


ARRAY_PROBE = r"""
import array, decimal, json, sys
from rlvr_harness.guard import Guard

Guard().install()
out = {}
for name, call in [("setitem", lambda a, v: a.__setitem__(50, v)), ("append", lambda a, v: a.append(v)),
                   ("insert", lambda a, v: a.insert(3, v)), ("extend", lambda a, v: a.extend([v])),
                   ("fromlist", lambda a, v: a.fromlist([1, v]))]:
    for code in "qd":
        a = array.array(code, range(100))

        class Shrinks:
            def __index__(self):
                del a[:]
                a.append(0)  # a fresh 32-byte buffer: the write would land past it
                return 9

            __float__ = lambda self: float(self.__index__())

        try:
            call(a, Shrinks())
            out[name + code] = "written"
        except IndexError:
            out[name + code] = "refused"
b = array.array("q", [1, 2])
b[0] = True
b.append(7)
b.insert(0, 5)
b.extend(array.array("q", [8]))
d = array.array("d", [0.5])
d[0] = 2
d.append(decimal.Decimal("1.25"))
u = array.array("u", "ab")
u[0] = "z"
out["honest"] = [list(b), list(d), u.tounicode()]
print(json.dumps(out))
"""


def test_an_arrays_item_conversion_cannot_shrink_it_under_the_write():
    """array.array checks an item's index, then converts the value, whose __index__ (or
    __float__) can empty the array: the write then lands past a fresh small buffer, anywhere
    the program aims it (`array_setitem_index_frees_its_buffer` read and wrote all memory).
    Sealed (_dictver.seal_array_items, from Guard.install): converted first, index checked
    again; honest arrays work as before."""
    import json
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", ARRAY_PROBE], capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out.pop("honest") == [[5, 1, 2, 7, 8], [2.0, 1.25], "zb"], out
    assert set(out.values()) == {"refused"}, out


MMAP_PROBE = """
import json, mmap, sys
from rlvr_harness.guard import Guard

Guard().install()
out = {}


def attempt(name, setter, shrink):
    m = mmap.mmap(-1, 1 << 20)

    class Resizes:
        def __index__(self):
            m.resize(4096) if shrink == "resize" else m.close()
            return 65

    try:
        setter(m, Resizes())
        out[name + shrink] = "written"
    except (IndexError, ValueError):
        out[name + shrink] = "refused"


for shrink in ("resize", "close"):
    attempt("setitem", lambda m, v: m.__setitem__((1 << 20) - 1, v), shrink)
    attempt("wrapper", lambda m, v: type(m).__setitem__(m, (1 << 20) - 2, v), shrink)
    attempt("slice", lambda m, v: m.__setitem__(slice(v, (1 << 20) - 1), b"x" * ((1 << 20) - 66)), shrink)
del sys.modules["mmap"]
import mmap  # a second import makes a new class from the module's slot table
attempt("reimported", lambda m, v: m.__setitem__((1 << 20) - 1, v), "resize")


class Three:
    def __index__(self):
        return 3


h = mmap.mmap(-1, 8)
h[0] = 65
h[1] = True
h[Three()] = Three()
h[4:6] = b"yz"
h[-1] = 0x21
out["honest"] = bytes(h).decode("latin-1")
print(json.dumps(out))
"""


def test_a_maps_item_conversion_cannot_resize_it_under_the_write():
    """mmap.mmap checks an item's index, then converts the value, whose __index__ can resize
    the map (mremap moves it) or close it: the byte was written through the old pointer (red
    team rtx: a crash, the same shape as array.array's). Sealed (_dictver.seal_mmap_items, from
    Guard.install): index, value and a slice's bounds converted first, in the type's slot, its
    `__setitem__` wrapper and the module's slot table (a map class made by a second import);
    honest maps work as before."""
    import json
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", MMAP_PROBE], capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert res.returncode == 0, (res.returncode, res.stderr[-2000:])
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out.pop("honest") == "A\x01\x00\x03yz\x00!", out
    assert set(out.values()) == {"refused"}, out


UNITTEST_TESTS = """\
import unittest
from solution import Acc

assert 1 + 1 == 2  # a module-level assert runs through the strict helpers too


class TestAcc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(Acc().add(2).v, 2)

    def test_eq(self):
        self.assertEqual(Acc().add(1), Acc().add(1))  # candidate vs candidate: Python semantics

    @unittest.skip("a skipped test is not a pass")
    def test_skipped(self):
        pass


def test_plain():
    assert Acc().add(3).v == 3
"""


def test_unittest_classes_are_witnessed_and_strict():
    honest = (
        "class Acc:\n    def __init__(self):\n        self.v = 0\n    def add(self, x):\n        self.v += x\n        return self\n"
        "    def __eq__(self, o):\n        return isinstance(o, Acc) and o.v == self.v\n"
    )
    liar = (
        "class E:\n    def __eq__(s, o): return True\n    def __ne__(s, o): return False\n"
        "class Acc:\n    def add(self, x):\n        self.v = E()\n        return self\n    def __eq__(self, o):\n        return True\n"
    )
    no_skip = UNITTEST_TESTS.replace('    @unittest.skip("a skipped test is not a pass")\n', "")
    rows = [
        {"completion": honest, "tests": no_skip},
        {"completion": honest, "tests": UNITTEST_TESTS},
        {"completion": liar, "tests": no_skip},
    ]
    # A Grader of its own: slot cgroups are named <pid>-slot<i>, so a Grader closed by an
    # earlier test removes the cgroups of a still-open one in the same process (reported).
    with Grader(ScoreOptions(concurrency=2)) as g:
        outs = g.grade(rows)
    assert (outs[0].status, outs[0].tests_passed, outs[0].tests_total) == ("pass", 4, 4), outs[0].error
    # the tests' own @unittest.skip: that test is neither a pass nor a failure (docs/fidelity.md)
    assert (outs[1].status, outs[1].tests_passed, outs[1].tests_total) == ("pass", 3, 3), outs[1].error
    # only test_eq (candidate vs candidate) and the trivially passing test_skipped pass
    assert outs[2].reward == 0.0 and outs[2].tests_passed == 2


def test_unittest_classes_are_expected_whatever_their_name():
    from rlvr_harness.splitting import pytest_ids

    src = "import unittest\nclass GatewayChecks(unittest.TestCase):\n    def test_a(self):\n        pass\nclass Helper:\n    def test_b(self):\n        pass\n"
    assert pytest_ids(src) == ["test_solution.py::GatewayChecks::test_a"]


def test_channel_encoder_ignores_later_patches_of_json_and_os(monkeypatch):
    import json
    import json.encoder

    from rlvr_harness.channel import make_reporter

    r, w = os.pipe()
    report = make_reporter(b"N ", w)
    monkeypatch.setattr(json, "dumps", lambda *a, **k: '{"outcome": "passed"}')
    monkeypatch.setattr(json.encoder, "encode_basestring_ascii", lambda s: '"passed"')
    monkeypatch.setattr(os, "write", lambda fd, data: len(data))
    report({"ev": "test", "id": "check:1", "outcome": "failed", "output": [1, {"a": None}, float("nan")]})
    monkeypatch.undo()
    line = os.read(r, 4096)
    os.close(r), os.close(w)
    event = json.loads(line[2:])
    assert event["outcome"] == "failed" and event["output"][:2] == [1, {"a": None}]


def test_strict_equality_by_allowlist():
    """Python's own answers where both types are trusted; an object nobody vouches for, alone
    or inside a stdlib container, view or proxy, equals nothing trusted."""
    import collections
    import datetime
    import decimal
    import fractions
    import types
    import weakref

    import numpy as np

    class Liar:
        def __eq__(self, other):
            return True

        def __ne__(self, other):
            return False

        __hash__ = object.__hash__

    class Token:
        pass

    class TZ(datetime.tzinfo):
        def utcoffset(self, d):
            return datetime.timedelta(0)

    class Meta(type):
        @property
        def __flags__(cls):
            return 0

    class Sneaky(int, metaclass=Meta):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

    keep = Liar()
    env = {"F": fractions.Fraction, "D": decimal.Decimal, "datetime": datetime, "collections": collections,
           "np": np, "pytest": pytest}
    honest = [
        ("v == 2", fractions.Fraction(2)), ("v == F(1, 3)", fractions.Fraction(1, 3)), ("v == 0.5", decimal.Decimal("0.5")),
        ("v == pytest.approx(0.3)", 0.1 + 0.2), ("pytest.approx([1.0, 2.0]) == v", [1.0, 2.0000001]),
        ("v == datetime.date(2020, 1, 1)", datetime.date(2020, 1, 1)), ("v == {'a': 3}", collections.OrderedDict(a=3)),
        ("v == {'a': 3}", collections.Counter(a=3)), ("v == {'a': 3}", types.MappingProxyType({"a": 3})),
        ("v == {1, 2}", {1: 0, 2: 0}.keys()), ("v == (1, 2)", collections.namedtuple("P", "a b")(1, 2)),
        ("(v == np.array([1, 2])).all()", np.array([1, 2])), ("v == 3", np.int64(3)), ("1 < v < 3", fractions.Fraction(2)),
        ("abs(v - 2.5) < 1e-9", fractions.Fraction(5, 2)), ("v == b'ab'", bytearray(b"ab")), ("v == 3", Sneaky(3)),
        ("v == collections.deque([3])", collections.deque([3])), ("v in range(5)", 2.0),
    ]
    for expr, v in honest:
        assert _run_rewritten(f"assert {expr}", {**env, "v": v}), expr
    hacks = [
        ("v == pytest.approx(2)", Liar()), ("v == 42", pytest.approx(0, abs=1e300)), ("v == datetime.date(2020, 1, 1)", Liar()),
        ("v == F(2)", Liar()), ("v == D(2)", Liar()), ("v == {'a': 3}", collections.OrderedDict(a=Liar())),
        ("v == {'a': 3}", types.MappingProxyType({"a": Liar()})), ("v == 3", weakref.proxy(keep)),
        ("v == collections.deque([3])", collections.deque([Liar()])), ("v == [1, 2]", [Liar(), 2]), ("v == 5", Sneaky(3)),
        ("v == Token()", Liar()), ("Token() == v", Liar()),
        ("v == datetime.datetime(2020, 1, 1)", datetime.datetime(2020, 1, 1, tzinfo=TZ())),
        ("np.allclose(v, 2.5)", Liar()), ("v in [1, 2]", Liar()), ("v == (2, 3)", collections.namedtuple("P", "a b")(Liar(), Liar())),
    ]
    for expr, v in hacks:
        assert not _run_rewritten(f"class Token:\n    pass\nassert {expr}", {**env, "v": v}), expr
    # a comparison outside any assert decides too (evalplus: exact_match = out == exp)
    assert not _run_rewritten("ok = v == 2\nassert ok", {"v": Liar()})


def test_failure_log_is_append_only():
    from rlvr_harness.strict import failure_log

    log = failure_log()
    log(("fail", "hard", 3, "failed", "x"))
    mark = log(("mark",))
    for req in (("clear",), ("since", -5), ("active", {3}), ("mark",)):
        try:
            log(req)
        except Exception:  # noqa: BLE001 - a malformed request may raise; it may not remove
            pass
    assert log(("mark",)) == mark == 1
    assert log(("since", 0)) == (("hard", 3, "failed", "x"),)


def test_guard_resolves_paths_and_allows_writes_beside_the_tests(tmp_path):
    """In a fresh interpreter: opening a protected test file through `..`, a symlink or
    /proc/self/root is refused, and so is /proc/self/maps and another process's /proc entry;
    /proc/self/status, /proc/cpuinfo and a new file beside the test file are allowed."""
    import json
    import subprocess
    import sys

    tests_dir = tmp_path / "t"
    tests_dir.mkdir()
    (tests_dir / "test_solution.py").write_text("SECRET = 42\n")
    (tmp_path / "link").symlink_to(tests_dir / "test_solution.py")
    cand = tmp_path / "cand.py"
    cand.write_text(
        "import os\n"
        "def probe(t, root):\n"
        "    out = {}\n"
        "    for name, path in [('dotdot', t + '/../t/test_solution.py'), ('symlink', root + '/link'),\n"
        "                       ('proc_root', '/proc/self/root' + t + '/test_solution.py'), ('maps', '/proc/self/maps'),\n"
        "                       ('parent', '/proc/%d/status' % os.getppid()), ('proc_dir', '/proc/self'),\n"
        "                       ('status', '/proc/self/status'), ('cpuinfo', '/proc/cpuinfo')]:\n"
        "        try:\n            os.close(os.open(path, os.O_RDONLY)); out[name] = 'allowed'\n"
        "        except RuntimeError:\n            out[name] = 'refused'\n"
        "    with open(t + '/beside.txt', 'w') as fh:\n        fh.write('ok')\n"
        "    out['beside'] = 'allowed'\n"
        "    try:\n        import ctypes; ctypes.c_char.from_address(id(out)); out['ctypes'] = 'allowed'\n"
        "    except (RuntimeError, ImportError):\n        out['ctypes'] = 'refused'\n"
        "    return out\n"
    )
    driver = (
        "import sys, json; sys.path.insert(0, %r)\n"
        "from rlvr_harness.guard import Guard\n"
        "g = Guard(protected=(%r,)); g.install()\n"
        "def run():\n    g.arm()\n    import cand\n    return cand.probe(%r, %r)\n"
        "print(json.dumps(run()))\n"
    ) % (str(tmp_path), str(tests_dir / "test_solution.py"), str(tests_dir), str(tmp_path))
    res = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=60,
                         cwd=str(ROOT))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out == {"dotdot": "refused", "symlink": "refused", "proc_root": "refused", "maps": "refused",
                   "parent": "refused", "proc_dir": "refused", "status": "allowed", "cpuinfo": "allowed",
                   "beside": "allowed", "ctypes": "refused"}


KERNEL_PROBE = '''
import os
import subprocess
import sys


def probe():
    out = {}
    try:  # a directory fd of "/" and a relative open: no path the audit hook can resolve
        root = os.open("/", os.O_RDONLY)
        mem = os.open("proc/self/mem", os.O_RDONLY, dir_fd=root)
        os.pread(mem, 8, id(out))
        out["dirfd_self_mem"] = "allowed"
    except Exception:
        out["dirfd_self_mem"] = "refused"
    code = "import os; fd = os.open('/proc/%d/mem' % os.getppid(), os.O_RDONLY); os.pread(fd, 8, 65536); print('read')"
    try:  # a subprocess (no audit hook in it) reading the check process's memory
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
        out["child_reads_parent_mem"] = "allowed" if "read" in res.stdout else "refused"
    except Exception:
        out["child_reads_parent_mem"] = "refused"
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE in this process
        out["prctl_dumpable_here"] = "allowed"
    except Exception:
        out["prctl_dumpable_here"] = "refused"
    return out
'''


def test_memory_routes_the_guard_cannot_see_are_refused_below_it():
    """The check process's memory (the channel's nonce, the tests' values) stays out of reach by
    routes no audit hook sees: an openat relative to a directory fd, a subprocess reading the
    parent's /proc/<pid>/mem; making the process dumpable needs ctypes, refused in-process."""
    tests = ("r = probe()\nassert r == {'dirfd_self_mem': 'refused', 'child_reads_parent_mem': 'refused', "
             "'prctl_dumpable_here': 'refused'}, r\n")
    with Grader(ScoreOptions(concurrency=1)) as g:
        [o] = g.grade([{"completion": KERNEL_PROBE, "tests": tests}])
    assert o.status == "pass", o.error


NATIVE_PROBE = """
import sys


def loaded():
    names = [n for n in ("ctypes", "_ctypes", "cffi", "_cffi_backend") if n in sys.modules]
    stack, seen = [object], set()
    while stack:  # no import needed: a loaded extension's types hang off object's subclasses
        cls = stack.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        if getattr(cls, "__module__", "") in ("_ctypes", "_cffi_backend"):
            names.append(cls.__module__)
        stack.extend(type.__subclasses__(cls) if cls is not type else type.__subclasses__(type))
    return sorted(set(names))
"""


LIBRARY_LOADS_CTYPES = NATIVE_PROBE + """

def through_a_library():
    import numpy
    try:
        import multiprocessing
        multiprocessing.Value("i", 3)  # multiprocessing.sharedctypes imports ctypes
    except ImportError:
        pass
    return float(numpy.float64(1.5))
"""


def test_no_native_memory_module_is_loaded_in_a_check(numpy_env):
    """With _ctypes loaded, its types are reachable from object.__subclasses__() without an
    import, and a ctypes Union reads any address with no audit event (red-team A2): a check's
    process never has it — not from the worker's own set-up (sandbox/_linux.c), not from an
    environment's preloaded numpy, not from a library loading it on the candidate's behalf."""
    rows = [{"completion": NATIVE_PROBE, "tests": "assert loaded() == []\n"},
            {"completion": NATIVE_PROBE, "tests": "from solution import loaded\n\n\ndef test_none():\n    assert loaded() == []\n"},
            {"completion": LIBRARY_LOADS_CTYPES, "tests": "assert through_a_library() == 1.5\nassert loaded() == []\n"}]
    with Grader(ScoreOptions(concurrency=1)) as g:
        outs = g.grade(rows)
    with Grader(ScoreOptions(concurrency=1, env=numpy_env)) as g:
        outs += g.grade(rows)
    assert [o.status for o in outs] == ["pass", "pass", "runtime_error"] + ["pass"] * 3, [o.error for o in outs]
    assert "No module named 'numpy'" in outs[2].error


NATIVE_IMPORTS = """
import importlib.util
import os
import shutil
import _json

DYNLOAD = os.path.dirname(_json.__file__)


def attempt(code):
    try:
        exec(code, {"load": load, "DYNLOAD": DYNLOAD, "shutil": shutil, "os": os})
        return "allowed"
    except BaseException as exc:
        return "refused" if "refused by the grader" in str(exc) else type(exc).__name__


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    return importlib.util.module_from_spec(spec)


def so(name):
    return [os.path.join(DYNLOAD, f) for f in os.listdir(DYNLOAD) if f.split(".")[0] == name][0]


def probe():
    sub = so("_xxsubinterpreters")
    return {
        "subinterpreters": attempt("import _xxsubinterpreters"),
        "testcapi": attempt("import _testcapi"),
        "ctypes_test": attempt("import _ctypes_test"),
        "by_spec": attempt(f"load('_xxsubinterpreters', {sub!r})"),
        "own_copy": attempt(f"shutil.copy({sub!r}, '/tmp/x.so'); load('_xxsubinterpreters', '/tmp/x.so')"),
        "allowlisted": attempt("import _json, mmap, _asyncio, unicodedata, _decimal, array, _csv, _heapq, select"),
    }
"""


def test_only_allowlisted_native_modules_load_in_candidate_code():
    """Native code decides by allowlist: the interpreter's extension modules only where listed
    (guard.STDLIB_EXTENSIONS), never one from outside the library tree. A subinterpreter has no
    audit hook of ours and imported ctypes in the check's address space; _testcapi and
    _ctypes_test read and write raw memory; a copy of a refused module loaded by file is native
    code of the candidate's."""
    want = {"subinterpreters": "refused", "testcapi": "refused", "ctypes_test": "refused", "by_spec": "refused",
            "own_copy": "refused", "allowlisted": "allowed"}
    tests = "r = probe()\n" + "".join(f"assert r[{k!r}] == {v!r}\n" for k, v in want.items())
    rows = [{"completion": NATIVE_IMPORTS, "tests": tests},
            {"completion": NATIVE_IMPORTS, "tests": "from solution import probe\n\n\ndef test_probe():\n    " +
             tests.replace("\n", "\n    ").rstrip() + "\n"}]
    with Grader(ScoreOptions(concurrency=1)) as g:
        outs = g.grade(rows)
    assert [(o.status, o.tests_passed) for o in outs] == [("pass", 6), ("pass", 1)], [o.error for o in outs]


NUMPY_TEST_EXTENSIONS = """
import importlib


def probe():
    out = {}
    for name in ("numpy._core._multiarray_tests", "numpy._core._umath_tests", "numpy._core._rational_tests",
                 "numpy._core._multiarray_umath", "numpy.testing"):
        try:
            importlib.import_module(name)
            out[name] = "allowed"
        except ImportError as exc:
            out[name] = "refused" if "refused by the grader" in str(exc) else "missing"
    return out
"""


def test_a_librarys_own_test_extensions_are_refused_in_a_check(numpy_env):
    """numpy ships test extensions (_multiarray_tests: corrupt_or_fix_bufferinfo,
    npy_abuse_writebackifcopy ...) that poke at raw memory as _testcapi does; numpy never imports
    them itself. Refused like the interpreter's _test* modules; numpy and numpy.testing load."""
    want = {"numpy._core._multiarray_tests": "refused", "numpy._core._umath_tests": "refused",
            "numpy._core._rational_tests": "refused", "numpy._core._multiarray_umath": "allowed", "numpy.testing": "allowed"}
    tests = "r = probe()\n" + "".join(f"assert r[{k!r}] == {v!r}\n" for k, v in want.items())
    with Grader(ScoreOptions(concurrency=1, env=numpy_env)) as g:
        [out] = g.grade([{"completion": NUMPY_TEST_EXTENSIONS, "tests": tests}])
    assert (out.status, out.tests_passed) == ("pass", 5), out.error


def test_an_exception_is_described_without_running_the_programs_code():
    """run_asserts describes a step's exception while it holds the tests: the message is made
    without any `__str__`, `__repr__` or property of the program's (red team A9's class)."""
    from rlvr_harness import runner

    called = []

    class Loud(Exception):
        def __str__(self):
            called.append("str")
            return "x"

    class Arg:
        def __repr__(self):
            called.append("repr")
            return "y"

        __str__ = __repr__

    texts = [runner.last_line(Loud("a")), runner.last_line(ValueError(Arg())), runner.last_line(KeyError(Arg()))]
    assert called == [] and all("not shown" in t for t in texts), texts
    assert runner.last_line(ValueError("bad input")) == "ValueError: bad input"
    assert runner.last_line(KeyError("k")) == "KeyError: 'k'"


def test_deeply_nested_tests_are_prepared_under_their_own_budget():
    """A 600-term `1+1+...+1` in the tests is honest test data CPython compiles: preparing it
    never fails for its depth (lead finding 1); deeper than any compiler takes, it says so."""
    import sys

    from rlvr_harness import runner, splitting

    deep = "def check(c):\n    assert c(1) == " + "+".join(["1"] * 600) + "\ncheck(f)\n"
    limit = sys.getrecursionlimit()
    steps, *_ = runner.prepare_asserts(deep)
    assert len(steps) == 2 and sys.getrecursionlimit() == limit
    nested: ast.expr = ast.Constant(1)
    for _ in range(5000):
        nested = ast.List(elts=[nested], ctx=ast.Load())
    assert splitting.is_literal(nested)
    too_deep: ast.expr = ast.Constant(1)
    for _ in range(splitting.MAX_DEPTH + 10):
        too_deep = ast.UnaryOp(op=ast.USub(), operand=too_deep)
    with pytest.raises(RecursionError, match="levels deep"):
        splitting.deeper(too_deep)
