"""Runs INSIDE the sandbox child: the call test style.

The program is executed once as module `solution`; then each case forks a grandchild that
calls the target — a module-level function, or a method of a fresh `Solution()` (LeetCode) —
with the case's arguments, under its own CPU limit, and sends back the return value encoded
as plain tagged JSON (rlvr_harness/values.py). Only that encoding leaves the sandbox: an
object with a rigged `__eq__` is not a plain value, so it is refused here and fails the case;
the expected values are not in the sandbox, the comparison happens outside."""

from __future__ import annotations

import json
import os
import sys
import types
from typing import Any, Callable

from rlvr_harness import seeding
from rlvr_harness.stdio import RunBudget, harden_parent, run_process
from rlvr_harness.values import NotPlain, decode, encode
from rlvr_harness.wire import CaseOptions, CheckPayload

Report = Callable[[dict[str, Any]], None]
def find_target(module: types.ModuleType, fn_name: str) -> Callable[[], Callable[..., Any]]:
    """A factory giving the callable to test: `Solution().fn_name` (a fresh instance per case,
    like LeetCode's judge), else the module-level `fn_name`."""
    ns = module.__dict__
    cls = ns.get("Solution")
    if isinstance(cls, type) and hasattr(cls, fn_name):
        return lambda: getattr(cls(), fn_name)
    fn = ns.get(fn_name)
    if callable(fn):
        return lambda: fn
    raise LookupError(f"the program defines no function {fn_name!r} (nor Solution.{fn_name})")


def run(payload: CheckPayload, report: Report, workdir: str, testdir: str = "") -> None:
    harden_parent()
    opts: CaseOptions = payload.options
    fn_name = opts.fn_name
    cases = opts.calls
    program = payload.program
    setup = payload.setup
    try:
        code = compile(setup + "\n" + program if setup else program, "solution.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        report({"ev": "phase", "phase": "compile", "msg": f"{type(exc).__name__}: {exc}"[:500]})
        return
    module = types.ModuleType("solution")
    module.__file__ = os.path.abspath("solution.py")
    sys.modules["solution"] = module
    try:
        exec(code, module.__dict__)
        factory = find_target(module, fn_name)
    except MemoryError:
        report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
        return
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: exiting early is not passing
        report({"ev": "phase", "phase": "runtime", "msg": f"{type(exc).__name__}: {exc}"[:500]})
        return
    program_seed = seeding.seeds(payload).program
    each = RunBudget(opts)
    for i, case in enumerate(cases):
        args = decode(list(case.args))
        kwargs = decode(dict(case.kwargs))
        seed = seeding.case_seed(program_seed, i)
        res, output, msg, raised = _attempt(_caller(factory, args, kwargs, seed), each)
        if raised and each.used + res.cpu_s < each.budget_s:
            # A case raised in the fork of the loaded program. What the program opened at import
            # may not survive a fork (a sqlite3 connection: "disk I/O error"), where the
            # reference graders call in the process that imported it: the case runs once more
            # in a process that runs the program's top level afresh, for itself alone, so no
            # case sees another's state either way. Both runs are charged to the row's budget.
            each.used += res.cpu_s
            res, output, msg, raised = _attempt(_caller(_fresh(code, fn_name), args, kwargs, seed), each)
        report({"ev": "test", "id": f"case:{i}", "outcome": "passed" if res.verdict == "OK" else "error",
                "msg": msg, "output": output})
        if each.spend(res.cpu_s, i, len(cases), report) or (res.verdict != "OK" and each.stop_on_fail):
            break
    report({"ev": "done"})


def _attempt(call: Callable[[], None], each: RunBudget) -> tuple[Any, dict[str, Any] | None, str, bool]:
    """One run of a case: (result, output, message, whether the function raised)."""
    limit = each.case_cpu()
    res = run_process(call, None, limit, each.case_wall(), each.output_cap, want_extra=True)
    output = None
    msg = each.describe(res, limit)
    raised = False
    if res.verdict == "OK":
        try:
            sent = json.loads(res.extra.decode("utf-8"))
            if "error" in sent:
                res.verdict, msg, raised = "RE", "RE: " + str(sent["error"])[:400], True
            else:
                output = {"value": sent["value"]}  # wrapped: a None return is a value too
        except (ValueError, KeyError, TypeError):
            res.verdict, msg = "RE", "RE: the case reported no result"
    return res, output, msg, raised


def _fresh(code: Any, fn_name: str) -> Callable[[], Callable[..., Any]]:
    """A factory that runs the program's top level in this process first (the case's own)."""
    def make() -> Callable[..., Any]:  # pragma: no cover - the grandchild
        module = types.ModuleType("solution")
        module.__file__ = os.path.abspath("solution.py")
        sys.modules["solution"] = module
        exec(code, module.__dict__)
        return find_target(module, fn_name)()

    return make


def _caller(factory: Callable[[], Callable[..., Any]], args: list, kwargs: dict, seed: int) -> Callable[[], None]:
    def call() -> None:  # pragma: no cover - the grandchild
        seeding.seed_here(seed)  # this fork's `random` was reseeded from the OS
        # The encoder and the result fd are bound now, before candidate code runs in this
        # process; what the candidate does to json/os afterwards only affects its own answer.
        dumps, write = json.dumps, os.write
        try:
            value = factory()(*args, **kwargs)
            data = dumps({"value": encode(value)})
        except NotPlain as exc:
            data = dumps({"error": str(exc)})
        except RecursionError:
            data = dumps({"error": "RecursionError: maximum recursion depth exceeded"})
        except MemoryError:
            os.write(2, b"MemoryError\n")
            os._exit(1)
        except BaseException as exc:  # noqa: BLE001 - SystemExit in the function is a failure too
            try:
                text = f"{type(exc).__name__}: {exc}"
            except BaseException:  # noqa: BLE001 - a hostile __str__
                text = type(exc).__name__
            data = dumps({"error": text[:400]})
        raw = data.encode()
        while raw:
            n = write(3, raw)
            raw = raw[n:]
        try:
            sys.stdout.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(0)

    return call
