"""ClassEval's unittest run for one program (copied next to it into a throwaway folder and run
by the reference venv's Python, unsandboxed): as FudanSELab/ClassEval's test_pipeline.py does,
the module (the class followed by its tests, one file) is imported and each of the task's test
classes runs through `unittest.TextTestRunner` with a 5-second limit; a class whose run raises
(the import failed, the limit hit) counts as run 0, errors 0 - "error". The task passes when
every test class ran tests and had no error and no failure (ClassEval's "class_success").

The status says why a task failed: "error" for an import or class that raised, "failed" for a
failing test or a class that ran none, and "timeout" only when ClassEval's limit is all that went
wrong (in the import, or inside a test, where unittest records the limit's exception as that
test's error); the verdict is ClassEval's either way.

argv: the module name, the JSON list of test classes and, optionally, the limit in seconds (the
confirming reruns' wider budget; default ClassEval's 5) and the seed of `random`: rlvr-grade's
seed of the row's tests (rlvr_harness/seeding.py), set before the module is imported, so a task
whose verdict depends on its draws (ClassEval_58 counts random mines) is judged on the draws
rlvr-grade's check makes, not on a coin toss. Prints one result line."""

import importlib
import io
import json
import random
import signal
import sys
import traceback
import unittest

RESULT = "FIDELITY-RESULT "
LIMIT_S = 5  # ClassEval's @func_set_timeout(5) on run_unit_test


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def main() -> None:
    module_name, classes = sys.argv[1], json.loads(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else LIMIT_S
    if len(sys.argv) > 4:
        random.seed(int(sys.argv[4]))
    sys.path.insert(0, ".")
    signal.signal(signal.SIGALRM, _alarm)
    problems = []  # (status, what): every reason the task is not a success, in order
    module = None
    try:
        signal.setitimer(signal.ITIMER_REAL, limit)
        module = importlib.import_module(module_name)
    except _Timeout:
        problems.append(("timeout", f"import: over {limit:g} s"))
    except BaseException as exc:  # noqa: BLE001 - ClassEval's own bare except
        problems.append(("error", f"import: {type(exc).__name__}: {exc}"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if module is not None:
        for name in classes:
            try:
                signal.setitimer(signal.ITIMER_REAL, limit)
                suite = unittest.TestLoader().loadTestsFromTestCase(getattr(module, name))
                res = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
                signal.setitimer(signal.ITIMER_REAL, 0)
            except _Timeout:
                problems.append(("timeout", f"{name}: over {limit:g} s"))
                continue
            except BaseException as exc:  # noqa: BLE001
                signal.setitimer(signal.ITIMER_REAL, 0)
                problems.append(("error", f"{name}: {type(exc).__name__}: {exc}"))
                continue
            if res.testsRun == 0:
                problems.append(("failed", f"{name}: no tests ran"))
            for test, tb in res.errors + res.failures:
                last = [x for x in tb.strip().splitlines() if x.strip()][-1].strip()
                # unittest records the limit's exception, raised inside a test, as its error
                kind = "timeout" if last.endswith("_Timeout") else "failed"
                problems.append((kind, f"{test.id().split('.', 1)[-1]}: {last}"))
    # A failure the limit did not cause decides the status (the verdict is fail whatever the
    # machine's load); "timeout" only when the limit is all that went wrong.
    real = [p for p in problems if p[0] != "timeout"]
    status, first_problem = (real or problems or [("passed", "")])[0]
    line = {"passed": not problems, "status": status, "error": first_problem[:500]}
    print(RESULT + json.dumps(line), flush=True)


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # noqa: BLE001 - the harness itself failed: say so, never a pass
        print(RESULT + json.dumps({"passed": False, "status": "harness-error",
                                   "error": traceback.format_exc()[-500:]}), flush=True)
