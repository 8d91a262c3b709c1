"""The test runner inside the sandbox child. It reports through `report(event)` only;
stdout and the exit code are never the verdict (see sandbox/zygote.py for the channel)."""

from __future__ import annotations

import ast
import os
import sys
import traceback
from typing import Any, Callable

from rlvr_grade.harness import strict
from rlvr_grade.harness.guard import Guard
from rlvr_grade.harness.splitting import assert_checks, is_literal, soft_call, soft_functions

Report = Callable[[dict[str, Any]], None]
WORKDIR_SOLUTION = "solution.py"
TEST_MODULE = "test_solution.py"
TESTS_FILENAME = "tests.py"  # asserts-style test code; a trusted file for the guard
# What the pytest test module's file holds on disk: pytest is given the source from memory.
TEST_PLACEHOLDER = "# the tests are not on disk: the grader gives pytest their source from memory\n"


def last_line(exc: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1][:500] if text else type(exc).__name__


def run(payload: dict[str, Any], report: Report, workdir: str, testdir: str) -> None:
    style = payload["style"]
    if style == "asserts":
        run_asserts(payload, report, testdir)
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


class _NoGuard:
    """`rlvr-grade doctor` probes the sandbox's own layers, so its (trusted) probe runs
    without the in-process guard, which would otherwise answer first."""

    armed = False

    def arm(self) -> None:
        pass

    def disarm(self) -> None:
        pass


def _make_guard(testdir: str, test_files: list[str], payload: dict[str, Any] | None = None) -> Guard:
    if payload is not None and (payload.get("options") or {}).get("guard") is False:
        return _NoGuard()  # type: ignore[return-value]
    g = Guard(trusted_files=test_files)
    g.protected = tuple(os.path.realpath(f) for f in test_files if os.path.isabs(f))
    g.install()
    return g


def test_namespace(solution_ns: dict[str, Any], used: frozenset[str] | set[str], builtin_names: dict[str, Any]) -> dict[str, Any]:
    """The globals the test code runs in: the solution's names and pristine builtins (made
    before the candidate ran; the strict helpers are constants of the test code, see
    strict.link). A solution name that shadows a builtin
    (`def sorted(...)`, `abs = ...`) is hidden from the tests when they also use another
    solution function (that one is the subject and the builtin is the test's tool); a lone
    shadowing function is the subject itself (MBPP's `def sum(a, b)` with `assert sum(10, 15)
    == 6`). `used`: every name the tests mention."""
    subjects = {k for k in used if k in solution_ns and k not in builtin_names and callable(solution_ns[k])}
    ns: dict[str, Any] = {}
    for name, value in solution_ns.items():
        if name.startswith("__") and name.endswith("__"):
            continue
        if name in builtin_names and subjects:
            continue
        ns[name] = value
    ns["__name__"] = "__main__"
    ns["__builtins__"] = builtin_names
    return ns


def test_imports(tree: ast.Module) -> list[str]:
    """Modules the test code imports (absolute imports; the candidate's own `solution` aside)."""
    return _scan_tests(tree)[2]


# Modules whose snapshot the warm worker takes once, before any check (see snapshot_common):
# a child then copies nothing for them (copying builtins' dict in every child cost ~0.6 ms of
# copy-on-write faults). Snapshots are tuples: a candidate cannot rewrite one in place.
_COMMON = ("builtins", __name__, strict.__name__, "traceback", "math", "operator", "re", "collections",
           "itertools", "functools", "heapq", "bisect", "string", "typing", "json", "fractions", "decimal")
_SNAPSHOTS: dict[str, tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]] = {}


def _dict_version_reader() -> Callable[[dict[str, Any]], int] | None:
    """A reader of a dict's version tag (PEP 509: CPython gives every dict a tag that changes
    whenever the dict does), or None where this interpreter's dicts do not behave so. It is
    what lets `restore()` skip a module nobody touched without reading its values: reading a
    value increfs it, and each one sits on a page the check child then copies (a first restore
    over builtins and a few modules cost ~130 copy-on-write faults, ~0.7 ms). The reader goes
    through ctypes' own C getter and from_address, taken here (the candidate cannot swap them
    for its own), and is checked on live dicts before it is trusted: wrong offset, a debug
    build's larger header, or an interpreter without the tag, and it is not used."""
    try:
        import ctypes

        get = ctypes._SimpleCData.__dict__["value"].__get__
        at = ctypes.c_uint64.from_address
        offset = 3 * ctypes.sizeof(ctypes.c_void_p)  # after ob_refcnt, ob_type, ma_used
    except Exception:  # noqa: BLE001 - no ctypes here: restore() reads every value
        return None
    _id = id

    def version(d: dict[str, Any]) -> int:
        return get(at(_id(d) + offset))

    try:
        d: dict[Any, Any] = {}
        other: dict[Any, Any] = {"x": 1}
        seen = [version(d), version(other)]
        d["a"] = 1
        seen.append(version(d))
        d["a"] = 2  # a value replaced: the size stays, the tag must still move
        seen.append(version(d))
        del d["a"]
        seen.append(version(d))
        steady = version(d) == seen[-1] and version(other) == seen[1]
        if not steady or len({seen[0], *seen[2:]}) != 4:
            return None
    except Exception:  # noqa: BLE001
        return None
    return version


_VERSION = _dict_version_reader()


def _snapshot(mod: Any) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]:
    """(live dict, its items, its version tag when they were taken). The tag is read first: a
    change between the two reads then shows as a changed tag (a full restore), never as an
    unchanged one."""
    live = mod.__dict__
    tag = _VERSION(live) if _VERSION is not None else None
    return live, tuple(live.items()), tag


def snapshot_common() -> None:
    """Take the snapshots of the modules in _COMMON that are already imported (the worker
    calls this once after importing the harness; the checks it forks inherit them), and
    build the per-check state of an asserts check (see _asserts_state)."""
    for name in _COMMON:
        mod = sys.modules.get(name)
        if mod is not None and name not in _SNAPSHOTS:
            _SNAPSHOTS[name] = _snapshot(mod)
    _PREBUILT["asserts"] = _asserts_state()


# Built in the warm worker, before any check: each check child inherits its own copy (fork
# copies on write; no candidate has run in the worker), takes it once and builds nothing.
# Building it per child cost ~0.6 ms, mostly copy-on-write faults: copying builtins' dict and
# making the helpers' closures increfs every builtin they hold, on pages shared with the worker.
_PREBUILT: dict[str, Any] = {}
ISOLATED_TESTDIR = "/tmp/t"  # sandbox/isolation.TESTDIR: the guard's protected folder in a check


def _asserts_state() -> tuple[dict[str, Any], dict[str, Any], Callable[[tuple[Any, ...]], Any], Any, Guard]:
    """(pristine builtins, strict helpers, their failure log, the `solution` module, the
    guard for ISOLATED_TESTDIR, built but not installed) for one asserts check."""
    import types

    guard = Guard(trusted_files=[TESTS_FILENAME])  # the tests are never on disk: nothing to protect
    guard.hook  # noqa: B018 - builds the hook's closure now
    log = strict.failure_log()
    return strict.pristine_builtins(), strict.make_namespace(log), log, types.ModuleType("solution"), guard


def pristine_restorer(test_modules: list[str] | tuple[str, ...] = ()) -> Callable[[], None]:
    """Snapshot, now (before any candidate code), the attributes of `builtins`, of this runner
    and its strict helpers, and of the modules the tests import (imported here if they are not
    yet: numpy too, so that what the candidate patches in it can be told from what it was);
    the function returned puts back every attribute changed since. Run before the test code
    and after each step, it undoes a candidate's `builtins.exec = ...`,
    `math.isclose = lambda *a, **k: True` or patch of the harness's globals. The modules are
    imported before the guard is armed: they are the tests' (and their libraries'), and no
    candidate code has run yet to plant one."""
    import importlib

    snaps = []
    for name in ("builtins", __name__, strict.__name__, "traceback", *test_modules):
        snap = _SNAPSHOTS.get(name)
        if snap is None:
            try:
                mod = importlib.import_module(name)
            except BaseException:  # noqa: BLE001 - the test's own import will say what is wrong
                continue
            snap = _snapshot(mod)
        snaps.append(snap)
    snaps_t = tuple((live, items) for live, items, _ in snaps)
    # The tag each dict had when it last matched its snapshot. A list in this closure: reached
    # only through frames or gc, which the guard refuses to candidate code.
    known = [tag for _, _, tag in snaps]
    version = _VERSION
    get = dict.get
    _enumerate = enumerate

    def restore() -> None:
        for i, (live, items) in _enumerate(snaps_t):
            if version is not None and version(live) == known[i]:
                continue  # untouched since it last matched: nothing to read or put back
            for k, v in items:
                if get(live, k) is not v:
                    live[k] = v
            if version is not None:
                known[i] = version(live)

    return restore


# (step id, compiled statements, is a check, assert lines a soft `check(...)` call stands for)
Step = tuple[str, Any, bool, "list[int] | None"]


def prepare_asserts(tests: str) -> tuple[list[Step], list[tuple[int, int]], list[str], list[str]]:
    """Everything asserts-style tests need before the candidate runs, from the test text
    alone: the steps, split, strict-rewritten and compiled; the loops (line spans) in them;
    the names they mention; the modules they import. Raises SyntaxError for broken tests. A pure function of `tests`,
    so the local backend computes it once per distinct test text in the grader and ships it
    marshalled (see harness/prepared.py); a check without it computes it here."""
    steps = assert_checks(tests)
    tests_tree = ast.Module(body=[s for _, stmts, _ in steps for s in stmts], type_ignores=[])
    soft = soft_functions(tests_tree)
    loops, used, imports = _scan_tests(tests_tree)
    compiled: list[Step] = []
    for sid, stmts, is_check in steps:
        tree = strict.rewrite(ast.Module(body=stmts, type_ignores=[]))
        if not is_check and isinstance(stmts[0], ast.FunctionDef) and stmts[0].name in soft:
            tree = strict.SoftAsserts().visit(tree)
        lines = soft_call(stmts[0], soft) if is_check else None
        compiled.append((sid, compile(tree, TESTS_FILENAME, "exec", dont_inherit=True), is_check, lines))
    return compiled, loops, sorted(used), imports


_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _scan_tests(tree: ast.Module) -> tuple[list[tuple[int, int]], set[str], list[str]]:
    """One pass over the tests: the loops (line spans), every name mentioned, the modules
    imported (as test_imports). Literal test data (splitting.is_literal) holds none of these and is
    not descended into: in HumanEval+ it is most of the nodes."""
    loops: list[tuple[int, int]] = []
    used: set[str] = set()
    found: set[str] = set()
    literal = is_literal
    stack: list[ast.AST] = [tree]
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Name:
            used.add(n.id)
            continue
        if kind is ast.Constant:
            continue
        if kind in _LOOPS:
            loops.append((getattr(n, "lineno", 0), getattr(n, "end_lineno", 0)))
        elif kind is ast.Import:
            found.update(a.name for a in n.names)
        elif kind is ast.ImportFrom and n.module and not n.level:
            found.add(n.module)
        for child in ast.iter_child_nodes(n):
            if not literal(child):
                stack.append(child)
    return sorted(loops), used, sorted(m for m in found if m.split(".")[0] != "solution")


def run_asserts(payload: dict[str, Any], report: Report, testdir: str = "/tmp/t") -> None:
    from rlvr_grade.harness import prepared

    program = payload["program"]
    setup = payload.get("setup") or ""
    # Compiled by the grader when it could (prepared.pack_program: the same compile), else here.
    code = (None if setup else prepared.program_code(payload)) or _compile(setup + "\n" + program if setup else program, WORKDIR_SOLUTION, report)
    if code is None:
        return
    # Everything the tests need is prepared before the candidate's first line runs, and every
    # function and value used after it is held here, in locals the candidate cannot reach:
    # what it patches (builtins, math, this module) is put back before the tests run.
    compiled, loops, used, imports = prepared.steps_for(payload) or prepare_asserts(payload["tests"])
    restore = pristine_restorer(imports)
    builtin_names, helpers, log, module, guard = _PREBUILT.pop("asserts", None) or _asserts_state()
    for name in imports:  # the tests' modules as they are before the candidate runs (strict call())
        helpers[strict.REGISTER](sys.modules.get(name))
    link = strict.link
    linked = [(sid, link(step_code, helpers), is_check, lines) for sid, step_code, is_check, lines in compiled]
    run, make_tns, crash_line_of, before_crash, describe = exec, test_namespace, _crash_line, _before_crash, last_line
    verdicts = _step_verdicts
    module.__file__ = os.path.abspath(WORKDIR_SOLUTION)
    sys.modules["solution"] = module
    ns = module.__dict__
    if testdir == ISOLATED_TESTDIR and (payload.get("options") or {}).get("guard") is not False:
        guard.install()
    else:
        guard = _make_guard(testdir, [TESTS_FILENAME], payload)
    guard.arm()
    try:
        run(code, ns)
    except MemoryError:
        report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
        return
    except BaseException as exc:  # SystemExit included: exiting early is not passing
        report({"ev": "phase", "phase": "runtime", "msg": describe(exc)})
        return
    restore()
    tns = make_tns(ns, frozenset(used), builtin_names)
    no_lines: frozenset[int] = frozenset()
    for sid, step_code, is_check, lines in linked:
        restore()
        log(("active", lines or no_lines))
        mark = log(("mark",))
        try:
            run(step_code, tns)
        except AssertionError as exc:
            failed, crash = ("failed", describe(exc)), exc
        except MemoryError:
            report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
            return
        except BaseException as exc:
            failed, crash = ("error", describe(exc)), exc
        else:
            failed = crash = None
        log(("active", no_lines))
        restore()
        logged = log(("since", mark))
        if lines:  # a `check(candidate)` call: one verdict per assert inside it
            crash_line = crash_line_of(crash) if failed is not None else None
            for line, (outcome, msg) in verdicts(lines, logged, failed, crash_line, loops, before_crash):
                report({"ev": "test", "id": f"{sid}:{line}", "outcome": outcome, "msg": msg})
            continue
        if failed is None and logged:
            # nothing raised, yet an assert of the tests failed on the way (caught by whoever
            # called it): the step failed
            _, line, outcome, msg = logged[0]
            failed = (outcome, msg)
        if failed is not None:
            report({"ev": "test", "id": sid, "outcome": failed[0], "msg": failed[1]})
            if not is_check:
                return
        elif is_check:
            report({"ev": "test", "id": sid, "outcome": "passed"})
    report({"ev": "done"})


_RANK = {"passed": 0, "failed": 1, "error": 2}


def _step_verdicts(lines: list[int], logged: tuple[tuple[Any, ...], ...], failed: tuple[str, str] | None,
                   crash_line: int | None, loops: list[tuple[int, int]],
                   before_crash: Callable[[int, int | None, list[tuple[int, int]]], bool]) -> list[tuple[int, tuple[str, str]]]:
    """(line, (outcome, message)) for each own assert of a top-level `check(...)` call, from
    the failures logged while it ran and how it ended. A failure logged anywhere else (an
    assert in a helper it called, a nested function, a callback, another thread), even one
    that something caught, fails every assert of the call that did not fail on its own: which
    of them it stands for is unknown, and none of them may count as passed."""
    own: dict[int, tuple[str, str]] = {}
    stray: tuple[str, str] | None = None
    wanted = set(lines)
    for kind, line, outcome, msg in logged:
        if kind == "soft" and line in wanted:
            prev = own.get(line)
            if prev is None or _RANK.get(outcome, 2) > _RANK.get(prev[0], 2):
                own[line] = (outcome, msg)
        elif stray is None:
            stray = (outcome, f"{msg} (outside the asserts of the test function)" if line else msg)
    out = []
    for line in lines:
        verdict = own.get(line)
        if verdict is None:
            if failed is not None and not before_crash(line, crash_line, loops):
                verdict = failed  # the call raised before this assert (or in a loop around it) passed
            else:
                verdict = stray or ("passed", "")
        out.append((line, verdict))
    return out


def _crash_line(exc: BaseException | None) -> int | None:
    """Line of the test code where an exception left `check` (innermost tests.py frame)."""
    import traceback

    line = None
    for entry in traceback.extract_tb(exc.__traceback__) if exc is not None else ():
        if entry.filename == TESTS_FILENAME:
            line = entry.lineno
    return line


def _before_crash(line: int, crash: int | None, loops: list[tuple[int, int]]) -> bool:
    """An assert keeps its pass after the call raised only if it sits before the crash and no
    loop encloses both (a loop would have run it again after the crash)."""
    if crash is None or line >= crash:
        return False
    return not any(start <= line <= end and start <= crash <= end for start, end in loops)


def resolve_hookimpls() -> None:
    """Import pytest (a pytest-warm worker does it before forking). The recorder's hooks are
    marked when it is made, per check."""
    import pytest  # noqa: F401


class _Plugin:
    """What pluggy registers: its hook functions sit in the instance's dict, put there before
    the candidate runs; pluggy keeps the function objects, so nothing is looked up on this
    class (which the candidate can reach and give descriptors) when a hook fires."""


def make_recorder(report: Report, testfile: str, defs: set[tuple[str, int]], helpers: dict[str, Any],
                  test_modules: list[str] | tuple[str, ...] = (), log: Callable[[tuple[Any, ...]], Any] | None = None,
                  attributed: list[int] | None = None) -> Any:
    """A pytest plugin that forwards every report to the channel.

    A pass needs two witnesses: pytest's call-phase report says passed, and our own
    `pytest_pyfunc_call` (which runs the test function itself, tryfirst) saw the genuine test
    function, compiled from the test file, return. Patching TestReport, call_and_report or the
    hook machinery can change the first, never conjure the second.

    The plugin is reachable from candidate code (pytest's config is: pytestPDB keeps it, so is
    its plugin manager), so its hooks hold nothing in closure cells, which anyone holding a
    function can read and rewrite (`fn.__closure__[i].cell_contents`): their state, the
    reporter, the helpers and every builtin they call sit in one keyword-only default `_s`,
    made here before the candidate runs; reading or replacing a grader function's defaults is
    refused by the guard. pytest passes hooks only their named arguments, never `_s`.

    `log` is the strict helpers' failure log: a test whose window (its setup, call and
    teardown) logged a failed assert of the test file fails, whatever pytest made of it (the
    AssertionError may have been caught on the way). `attributed[0]` counts the failures
    that fell in some test's window; run_pytest fails the row for any other."""
    import functools

    import pytest

    log = log or strict.failure_log()
    code_type = type(make_recorder.__code__)
    restore = pristine_restorer(test_modules)  # imports them: remembered before the candidate runs
    for name in test_modules:
        helpers[strict.REGISTER](sys.modules.get(name))
    state: dict[str, Any] = {
        "restore": restore, "ran": {}, "log": log,
        "attributed": attributed if attributed is not None else [0], "marks": {}, "starts": {},
        "install": _install_strict_unittest_asserts, "helpers": helpers, "wraps": functools.wraps,
        "code_type": code_type, "getattr": getattr, "hasattr": hasattr, "type": type, "str": str, "len": len,
        "error": RuntimeError, "as_str": str.__str__, "testfile": testfile, "defs": defs,
        "not_genuine": "the collected test is not the test file's function", "send": report,
        "code_of": type(make_recorder).__dict__["__code__"].__get__, "base_exc": BaseException,
    }

    def genuine(fn, *, _s=state):  # noqa: ANN001, ANN202
        code = _s["getattr"](fn, "__func__", fn)
        code = _s["code_of"](code) if _s["type"](code) is _s["function_type"] else None
        if _s["type"](code) is not _s["code_type"]:
            return False
        return (_s["as_str"](code.co_filename) == _s["testfile"]
                and (_s["as_str"](code.co_name), code.co_firstlineno) in _s["defs"])

    def failures(nodeid, *, _s=state):  # noqa: ANN001, ANN202
        """The failures logged in this test's window since its last report."""
        start = _s["marks"].get(nodeid)
        if start is None:
            return ()
        logged = _s["log"](("since", start))
        _s["marks"][nodeid] = start + _s["len"](logged)
        return logged

    state.update(genuine=genuine, failures=failures, function_type=type(genuine))

    def pytest_collectreport(report, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        if report.failed:
            msg = _s["str"](report.longrepr).strip().splitlines()[-1:] if report.longrepr else []
            _s["send"]({"ev": "test", "id": f"collect:{report.nodeid}", "outcome": "error", "msg": " ".join(msg)[:500]})

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(pyfuncitem, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        _s["restore"]()  # builtins patched by the candidate's import are put back for the test
        nodeid = pyfuncitem.nodeid
        fn = pyfuncitem.obj
        ran = _s["ran"]
        if not _s["genuine"](fn):
            ran[nodeid] = "error:" + _s["not_genuine"]
            raise _s["error"](_s["not_genuine"])
        funcargs = pyfuncitem.funcargs
        args = {name: funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        try:
            result = fn(**args)
        except _s["base_exc"]:
            ran[nodeid] = "failed"
            raise
        if _s["hasattr"](result, "__await__") or _s["hasattr"](result, "__next__"):
            ran[nodeid] = "error:async or generator test functions are not run"
            raise _s["error"]("async or generator test functions are not run")
        ran[nodeid] = "passed"
        return True

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_setup(item, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        """unittest.TestCase tests do not go through pytest_pyfunc_call: wrap the test method
        of the instance pytest just created, so its return is witnessed the same way."""
        _s["marks"][item.nodeid] = _s["starts"][item.nodeid] = _s["log"](("mark",))  # before its fixtures
        yield
        _s["restore"]()  # what the candidate patched since the last test, before we use anything
        testcase = _s["getattr"](item, "_testcase", None)
        if testcase is None:
            return
        nodeid = item.nodeid
        method = _s["getattr"](testcase, item.name, None)
        fn = _s["getattr"](method, "__func__", None)
        if fn is None or not _s["genuine"](fn):
            _s["ran"][nodeid] = "error:" + _s["not_genuine"]
            return
        _s["install"](testcase, _s["helpers"], _s["log"])
        item.obj = _s["witness"](method, nodeid)  # pytest binds item.obj onto the instance right before running it

    def witness(method, nodeid, *, _s=state):  # noqa: ANN001, ANN202
        ran, restore, base_exc = _s["ran"], _s["restore"], _s["base_exc"]

        @_s["wraps"](method)  # keeps __unittest_skip__ and friends visible to pytest
        def witnessed(*args, **kwargs):  # noqa: ANN202
            restore()
            try:
                result = method(*args, **kwargs)
            except base_exc:
                ran[nodeid] = "failed"
                raise
            ran[nodeid] = "passed"
            return result

        return witnessed

    state["witness"] = witness

    def pytest_runtest_logreport(report, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        getattr_, str_, send, failures = _s["getattr"], _s["str"], _s["send"], _s["failures"]
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome
            if getattr_(report, "wasxfail", None) is not None:
                outcome = "skipped"  # xfail / xpass never count as a pass
            msg = ""
            if report.longrepr is not None and outcome != "passed":
                crash = getattr_(report.longrepr, "reprcrash", None)
                msg = crash.message if crash is not None else str_(report.longrepr)
                msg = msg.strip().splitlines()[0][:500] if msg.strip() else ""
            if outcome == "failed" and report.when != "call":
                outcome = "error"
            elif outcome == "failed" and msg and not msg.startswith(("assert", "AssertionError")):
                outcome = "error"  # the test raised something other than a failed assertion
            if report.when == "call" and outcome == "passed":
                seen = _s["ran"].get(report.nodeid)
                if seen != "passed":
                    outcome = "error"
                    msg = "pytest reported a pass the harness did not witness" + (f" ({seen})" if seen else "")
            logged = failures(report.nodeid)
            if logged and outcome == "passed":
                outcome, msg = "failed", logged[0][3]
            send({"ev": "test", "id": report.nodeid, "outcome": outcome, "msg": msg})
        elif report.when == "teardown":
            logged = failures(report.nodeid)  # e.g. an assert in a fixture's teardown, or one caught
            if logged:
                send({"ev": "test", "id": report.nodeid, "outcome": "failed", "msg": logged[0][3]})
        if report.when == "teardown":
            start = _s["starts"].pop(report.nodeid, None)
            _s["marks"].pop(report.nodeid, None)
            if start is not None:
                _s["attributed"][0] += _s["len"](_s["log"](("since", start)))

    plugin = _Plugin()
    vars(plugin).update(pytest_collectreport=pytest_collectreport, pytest_pyfunc_call=pytest_pyfunc_call,
                        pytest_runtest_setup=pytest_runtest_setup, pytest_runtest_logreport=pytest_runtest_logreport)
    return plugin


def _install_strict_unittest_asserts(testcase: Any, helpers: dict[str, Any],
                                     log: Callable[[tuple[Any, ...]], Any]) -> None:
    """Every comparing assert method on this TestCase instance goes through the strict
    helpers (strict.unittest_asserts); a failure is logged before it raises."""
    _setattr = setattr
    for name, fn in strict.unittest_asserts(helpers, log, testcase.failureException).items():
        _setattr(testcase, name, fn)


_WATCHED = ("_pytest", "pluggy", "pytest", "rlvr_grade")
# The pytest-warm worker's fingerprint, taken once before it forks any check (see
# prepare_fingerprint): (module names it covers, entries, (namespace, size) pairs). Built per
# check it was ~20 ms of a pytest check's ~110 ms.
_FP_BASE: list[tuple[frozenset[str], tuple[tuple[Any, ...], ...], tuple[tuple[Any, int], ...]]] = []


def _fp_entries(names: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, int]]]:
    """Entries (module or class name, attribute, getter, namespace, id of the value) for every
    attribute of the named modules and of the classes they define, and each namespace's size."""
    dict_get, proxy_get = dict.get, type(vars(type)).get
    entries: list[tuple[Any, ...]] = []
    sizes: list[tuple[Any, int]] = []
    for name in names:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        spaces = [(name, vars(mod))]
        for attr, value in list(spaces[0][1].items()):
            if isinstance(value, type) and value.__module__ == name:
                spaces.append((f"{name}.{attr}", vars(value)))
        for prefix, ns in spaces:
            get = dict_get if type(ns) is dict else proxy_get
            sizes.append((ns, len(ns)))
            entries.extend((prefix, attr, get, ns, id(value)) for attr, value in list(ns.items()))
    return entries, sizes


def _watched_modules() -> list[str]:
    return [name for name, mod in list(sys.modules.items()) if mod is not None and name.startswith(_WATCHED)]


def prepare_fingerprint() -> None:
    """Take the fingerprint's base in the warm worker, before any fork (the checks inherit it)."""
    names = _watched_modules()
    entries, sizes = _fp_entries(names)
    _FP_BASE[:] = [(frozenset(names), tuple(entries), tuple(sizes))]


def _fingerprinter() -> Callable[[], list[str]]:
    """Take, now, id() of every function/class attribute of pytest's, pluggy's and our own
    modules; the function returned lists those that changed since (a candidate that
    monkeypatches the runner's internals changes at least one). It holds the module and class
    dicts themselves and its own builtins: replacing `sys.modules` entries, this module's
    globals or `builtins.list` after the fact changes nothing it looks at. From the worker's
    base (prepare_fingerprint) only what changed since is taken again: modules imported
    after it, namespaces whose size changed, and values the harness itself has set since (the
    assertion-rewrite hook)."""
    _id = id
    missing = object()
    base_names, base, sizes = _FP_BASE[0] if _FP_BASE else (frozenset(), (), ())
    grown = {_id(ns) for ns, n in sizes if len(ns) != n}
    before: list[tuple[Any, ...]] = []
    regrown: dict[int, tuple[Any, ...]] = {}  # namespaces that gained or lost names: taken whole again
    for entry in base:
        prefix, attr, get, ns, ident = entry
        if _id(ns) in grown:
            regrown.setdefault(_id(ns), (prefix, get, ns))
            continue
        now = get(ns, attr, missing)
        before.append(entry if now is missing or _id(now) == ident else (prefix, attr, get, ns, _id(now)))
    for prefix, get, ns in regrown.values():
        before.extend((prefix, attr, get, ns, _id(value)) for attr, value in list(ns.items()))
    fresh, _ = _fp_entries([n for n in _watched_modules() if n not in base_names])
    before.extend(fresh)
    entries = tuple(before)

    def changes() -> list[str]:
        out = []
        for prefix, attr, get, ns, ident in entries:
            now = get(ns, attr, missing)
            if now is not missing and _id(now) != ident:  # a removed name breaks pytest by itself
                out.append(f"{prefix}.{attr}")
        return out

    return changes


def pytest_args(testfile: str, testdir: str) -> list[str]:
    return [
        testfile,
        "-q",
        "-p", "no:cacheprovider",
        "-p", "no:unraisableexception",
        "-p", "no:threadexception",
        "-p", "no:stepwise",
        # Plugins no test can ask for from a test file: each registered plugin costs every
        # check a fixture scan of its module (~1.5 ms apiece in a forked child). Not
        # `debugging`: the unittest plugin reads its --trace option.
        "-p", "no:pastebin",
        "-p", "no:junitxml",
        "-p", "no:doctest",
        "-p", "no:setuponly",
        "-p", "no:setupplan",
        "-p", "no:faulthandler",
        "--noconftest",
        "--rootdir", testdir,
        "-o", "addopts=",
        "--tb=line",
    ]


def _strict_rewrite_hook(testfile: str, helpers: dict[str, Any], tests: str | None = None):
    """Compile the test module with our rewrite (strict.rewrite, then pytest's own assertion
    rewrite) and link the helpers into its code (strict.link). With `tests`, the module's
    source is that text, not the file's (which holds TEST_PLACEHOLDER): the tests never sit
    where a process can read them."""
    import importlib.util

    from _pytest.assertion import rewrite as pyrewrite

    original = pyrewrite.rewrite_asserts
    original_test = pyrewrite._rewrite_test
    real_testfile = os.path.realpath(testfile)
    source = tests.encode("utf-8", "surrogatepass") if tests is not None else None
    link = strict.link

    def rewrite_asserts(mod, source, module_path=None, config=None):  # noqa: ANN001
        if module_path is not None and os.path.realpath(str(module_path)) == real_testfile:
            strict.rewrite(mod)
        return original(mod, source, module_path, config)

    def _rewrite_test(fn, config):  # noqa: ANN001 - pytest's signature
        if os.path.realpath(str(fn)) != real_testfile:
            return original_test(fn, config)
        if source is None:
            source_hash, co = original_test(fn, config)
            return source_hash, link(co, helpers)
        strfn = str(fn)
        tree = ast.parse(source, filename=strfn)
        rewrite_asserts(tree, source, strfn, config)
        co = compile(tree, strfn, "exec", dont_inherit=True)
        return importlib.util.source_hash(source), link(co, helpers)

    pyrewrite.rewrite_asserts = rewrite_asserts
    pyrewrite._rewrite_test = _rewrite_test


def _test_defs(tests: str) -> set[tuple[str, int]]:
    """(name, first line) of every function in the test file; 3.11 starts a decorated
    function's code at its first decorator."""
    defs: set[tuple[str, int]] = set()
    for node in ast.walk(ast.parse(tests)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.add((node.name, node.lineno))
            for d in node.decorator_list:
                defs.add((node.name, d.lineno))
    return defs


def run_pytest(payload: dict[str, Any], report: Report, workdir: str, testdir: str) -> None:
    import pytest

    resolve_hookimpls()  # a no-op in a pytest-warm worker, which resolved them before forking

    program = payload["program"]
    setup = payload.get("setup") or ""
    source = setup + "\n" + program if setup else program
    if _compile(source, WORKDIR_SOLUTION, report) is None:
        return
    testfile = os.path.join(testdir, TEST_MODULE)
    try:
        defs = _test_defs(payload["tests"])
        modules = test_imports(ast.parse(payload["tests"]))
    except SyntaxError:
        defs, modules = set(), []
    for d in (workdir, testdir):
        if d not in sys.path:
            sys.path.insert(0, d)
    log = strict.failure_log()
    helpers = strict.make_namespace(log)
    _strict_rewrite_hook(testfile, helpers, payload["tests"])
    attributed = [0]
    recorder = make_recorder(report, testfile, defs, helpers, modules, log, attributed)
    # Everything used after pytest returns is taken now: the candidate has run by then, and the
    # fingerprint check, this module's globals and builtins are all within its reach.
    changes = _fingerprinter()
    as_int = int
    guard = _make_guard(testdir, [testfile, os.path.realpath(testfile)], payload)
    disarm = guard.disarm
    _len = len
    guard.arm()
    code = as_int(pytest.main(pytest_args(testfile, testdir), plugins=[recorder]))
    disarm()
    stray = _len(log(("since", 0))) - attributed[0]
    if stray > 0:  # a failed assert of the test file outside every test's window
        report({"ev": "test", "id": "unattributed", "outcome": "failed",
                "msg": f"{stray} failed assert(s) of the test file outside any test"})
    changed = changes()
    if changed:
        report({"ev": "phase", "phase": "runtime", "msg": f"the test runner was modified: {', '.join(changed[:3])}"})
        return
    if code in (0, 1):  # tests ran; a failure is a verdict, not a harness error
        report({"ev": "done"})
    elif code == 2:
        report({"ev": "done", "interrupted": True})
    else:
        report({"ev": "phase", "phase": "runtime", "msg": f"pytest exited with code {code}"})
