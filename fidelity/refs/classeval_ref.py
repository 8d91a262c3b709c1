"""ClassEval's unittest run for one program (copied next to it into a throwaway folder and run
by the reference venv's Python, unsandboxed): as FudanSELab/ClassEval's test_pipeline.py does,
the module (the class followed by its tests, one file) is imported and each of the task's test
classes runs through `unittest.TextTestRunner` with a 5-second limit; a class whose run raises
(the import failed, the limit hit) counts as run 0, errors 0 - "error". The task passes when
every test class ran tests and had no error and no failure (ClassEval's "class_success").

argv: the module name and the JSON list of test classes. Prints one result line."""

import importlib
import io
import json
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
    sys.path.insert(0, ".")
    signal.signal(signal.SIGALRM, _alarm)
    first_problem = ""
    status = "passed"
    module = None
    try:
        signal.alarm(LIMIT_S)
        module = importlib.import_module(module_name)
    except BaseException as exc:  # noqa: BLE001 - ClassEval's own bare except
        first_problem = f"import: {type(exc).__name__}: {exc}"
        status = "error"
    finally:
        signal.alarm(0)
    if module is not None:
        for name in classes:
            try:
                signal.alarm(LIMIT_S)
                suite = unittest.TestLoader().loadTestsFromTestCase(getattr(module, name))
                res = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
                signal.alarm(0)
            except _Timeout:
                status = "timeout" if status == "passed" else status
                first_problem = first_problem or f"{name}: over {LIMIT_S} s"
                continue
            except BaseException as exc:  # noqa: BLE001
                signal.alarm(0)
                status = "error" if status == "passed" else status
                first_problem = first_problem or f"{name}: {type(exc).__name__}: {exc}"
                continue
            bad = res.errors + res.failures
            if res.testsRun == 0 or bad:
                status = "failed" if status == "passed" else status
                if not first_problem:
                    if bad:
                        test, tb = bad[0]
                        last = [x for x in tb.strip().splitlines() if x.strip()][-1]
                        first_problem = f"{test.id().split('.', 1)[-1]}: {last.strip()}"
                    else:
                        first_problem = f"{name}: no tests ran"
    line = {"passed": status == "passed", "status": status, "error": first_problem[:500]}
    print(RESULT + json.dumps(line), flush=True)


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # noqa: BLE001 - the harness itself failed: say so, never a pass
        print(RESULT + json.dumps({"passed": False, "status": "harness-error",
                                   "error": traceback.format_exc()[-500:]}), flush=True)
