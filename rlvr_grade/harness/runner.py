"""The test runner inside the sandbox child. It reports through `report(event)` only;
stdout and the exit code are never the verdict (see sandbox/zygote.py for the channel)."""

from __future__ import annotations

import ast
import os
import sys
import traceback
from typing import Any, Callable

from rlvr_grade.harness.splitting import assert_checks

Report = Callable[[dict[str, Any]], None]
WORKDIR_SOLUTION = "solution.py"
TEST_MODULE = "test_solution.py"


def last_line(exc: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1][:500] if text else type(exc).__name__


def run(payload: dict[str, Any], report: Report, workdir: str, testdir: str) -> None:
    style = payload["style"]
    if style == "asserts":
        run_asserts(payload, report)
    elif style == "pytest":
        run_pytest(payload, report, workdir, testdir)
    elif style in ("stdio", "call", "validate"):  # competitive-programming styles: harness/<style>.py
        __import__(f"rlvr_grade.harness.{style}", fromlist=["run"]).run(payload, report, workdir)
    else:
        report({"ev": "phase", "phase": "runtime", "msg": f"unknown test style {style!r}"})


def _compile(source: str, filename: str, report: Report):
    try:
        return compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        report({"ev": "phase", "phase": "compile", "msg": last_line(exc)})
        return None


def run_asserts(payload: dict[str, Any], report: Report) -> None:
    import types

    program = payload["program"]
    setup = payload.get("setup") or ""
    code = _compile(setup + "\n" + program if setup else program, WORKDIR_SOLUTION, report)
    if code is None:
        return
    module = types.ModuleType("solution")
    module.__file__ = os.path.abspath(WORKDIR_SOLUTION)
    sys.modules["solution"] = module
    ns = module.__dict__
    try:
        exec(code, ns)
    except MemoryError:
        report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
        return
    except BaseException as exc:  # SystemExit included: exiting early is not passing
        report({"ev": "phase", "phase": "runtime", "msg": last_line(exc)})
        return
    steps = assert_checks(payload["tests"])
    for sid, stmts, is_check in steps:
        step_code = compile(ast.Module(body=stmts, type_ignores=[]), "tests.py", "exec")
        try:
            exec(step_code, ns)
        except AssertionError as exc:
            report({"ev": "test", "id": sid, "outcome": "failed", "msg": last_line(exc)})
        except MemoryError:
            report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
            return
        except BaseException as exc:
            if not is_check:
                report({"ev": "test", "id": sid, "outcome": "error", "msg": last_line(exc)})
                return
            report({"ev": "test", "id": sid, "outcome": "error", "msg": last_line(exc)})
        else:
            if is_check:
                report({"ev": "test", "id": sid, "outcome": "passed"})
    report({"ev": "done"})


class _Recorder:
    """A pytest plugin object that forwards every report to the channel."""

    def __init__(self, report: Report):
        self.report = report

    def pytest_collectreport(self, report):  # noqa: ANN001 - pytest hook
        if report.failed:
            msg = str(report.longrepr).strip().splitlines()[-1:] if report.longrepr else []
            self.report(
                {"ev": "test", "id": f"collect:{report.nodeid}", "outcome": "error", "msg": " ".join(msg)[:500]}
            )

    def pytest_runtest_logreport(self, report):  # noqa: ANN001 - pytest hook
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome
            if getattr(report, "wasxfail", None) is not None:
                outcome = "skipped"  # xfail / xpass never count as a pass
            msg = ""
            if report.longrepr is not None and outcome != "passed":
                crash = getattr(report.longrepr, "reprcrash", None)
                msg = crash.message if crash is not None else str(report.longrepr)
                msg = msg.strip().splitlines()[0][:500] if msg.strip() else ""
            if outcome == "failed" and report.when != "call":
                outcome = "error"
            elif outcome == "failed" and msg and not msg.startswith(("assert", "AssertionError")):
                outcome = "error"  # the test raised something other than a failed assertion
            self.report({"ev": "test", "id": report.nodeid, "outcome": outcome, "msg": msg})


def pytest_args(testfile: str, testdir: str) -> list[str]:
    return [
        testfile,
        "-q",
        "-p", "no:cacheprovider",
        "-p", "no:unraisableexception",
        "-p", "no:threadexception",
        "-p", "no:stepwise",
        "--noconftest",
        "--rootdir", testdir,
        "-o", "addopts=",
        "--tb=line",
    ]


def run_pytest(payload: dict[str, Any], report: Report, workdir: str, testdir: str) -> None:
    import pytest

    program = payload["program"]
    setup = payload.get("setup") or ""
    source = setup + "\n" + program if setup else program
    if _compile(source, WORKDIR_SOLUTION, report) is None:
        return
    testfile = os.path.join(testdir, TEST_MODULE)
    for d in (workdir, testdir):
        if d not in sys.path:
            sys.path.insert(0, d)
    code = pytest.main(pytest_args(testfile, testdir), plugins=[_Recorder(report)])
    if int(code) in (0, 1):  # tests ran; a failure is a verdict, not a harness error
        report({"ev": "done"})
    elif int(code) == 2:
        report({"ev": "done", "interrupted": True})
    else:
        report({"ev": "phase", "phase": "runtime", "msg": f"pytest exited with code {int(code)}"})
