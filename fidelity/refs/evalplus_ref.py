"""evalplus's own evaluator for HumanEval+ (in the reference venv, unsandboxed), base and plus
tests together, as `evalplus.evaluate` runs them: the dataset is the local file named by
HUMANEVAL_OVERRIDE_PATH (evalplus reads it at import; no download), the expected outputs come
from evalplus's `get_groundtruth` (the canonical solutions run here, timed: evalplus derives each
input's time limit from that time, max(1 s, 4 x reference time)), and every sample goes through
`untrusted_check` for base, then plus, with evalplus's defaults (fast check: stop at the first
failing input) in a process pool, as its `check_correctness` calls it. Only the loop is ours, so
that a subset can run and each result streams out.

evalplus records a per-input time limit that expired as a plain failure of that input. The
driver tells the two apart without changing what evalplus decides: its `time_limit` is wrapped
to note, in memory the check's process shares with its pool worker, that the timer fired; the
status is then "<base|plus> time limit" instead of "<base|plus> fail" (fast check: the first
failing input is the one that expired). "<base|plus> timeout" is evalplus's own whole-task
timeout.

Options for the confirming reruns (fidelity/__main__.py): --retime measures the canonical
solutions of the batch's tasks again first and takes, per input, the larger of that time and
the cached one (evalplus's rule, "4 x the canonical solution's time on this machine", applied
under the load of the moment; never tighter than the batch's limits); --budget N multiplies
evalplus's minimum limit and factor (the wider budget; the whole task stays capped at evalplus's
60 s).

stdin: a JSON list of {"uid", "task_id", "solution"}; stdout: one result line per sample (see
fidelity/context.py run_driver). A sample passes when base and plus both pass, evalplus's
"HumanEval+" verdict."""

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed

RESULT = "FIDELITY-RESULT "
PASS = "pass"  # evalplus.eval.PASS
_FIRED = None  # per pool worker: shared memory the check's forked process writes when a timer fires


def _watch_timers() -> None:
    """Wrap evalplus's per-input `time_limit` (the name its unsafe_execute calls) so that an
    expiry is noted in _FIRED; the TimeoutException still propagates exactly as before."""
    import evalplus.eval as ev
    from evalplus.eval.utils import TimeoutException

    original = ev.time_limit

    @contextlib.contextmanager
    def time_limit(seconds):
        try:
            with original(seconds):
                yield
        except TimeoutException:
            if _FIRED is not None:
                _FIRED.value = 1
            raise

    ev.time_limit = time_limit


def _init_worker() -> None:
    global _FIRED
    _FIRED = multiprocessing.RawValue("i", 0)


def _check(problem: dict, solution: str, expected: dict, min_limit: float, factor: float) -> dict:
    from evalplus.eval import untrusted_check

    out = {}
    for which in ("base", "plus"):
        _FIRED.value = 0
        stat, details = untrusted_check("humaneval", solution, problem[f"{which}_input"], problem["entry_point"],
                                        expected=expected[which], atol=problem["atol"],
                                        ref_time=expected[f"{which}_time"], fast_check=True,
                                        min_time_limit=min_limit, gt_time_limit_factor=factor)
        out[which] = (stat, list(details), bool(_FIRED.value))
    return out


def _retimed(problems: dict, expected: dict, tasks: set) -> dict:
    from evalplus.gen.util import trusted_exec

    out = dict(expected)
    for task in sorted(tasks):
        p, e = problems[task], dict(expected[task])
        for which in ("base", "plus"):
            _, fresh = trusted_exec(p["prompt"] + p["canonical_solution"], p[f"{which}_input"], p["entry_point"],
                                    record_time=True)
            e[f"{which}_time"] = [max(a, b) for a, b in zip(e[f"{which}_time"], fresh, strict=True)]
        out[task] = e
    return out


def verdict(result: dict, inputs: dict) -> tuple:
    """(passed, status, error) from the two stages' (stat, details, timer fired)."""
    if all(result[w][0] == PASS for w in ("base", "plus")):
        return True, "pass", ""
    which = "base" if result["base"][0] != PASS else "plus"
    stat, details, fired = result[which]
    n_done = len(details)
    if stat == "timeout":
        return False, f"{which} timeout", f"{which}: evalplus's task timeout after input #{n_done} of {len(inputs[which])}"
    if fired and n_done:
        return False, f"{which} time limit", f"{which} input #{n_done - 1} exceeded its time limit: " \
                                              f"{repr(inputs[which][n_done - 1])[:300]}"
    if n_done:
        return False, f"{which} {stat}", f"{which} input #{n_done - 1}: {repr(inputs[which][n_done - 1])[:300]}"
    # exec failed, the entry point is missing, or HumanEval/32: evalplus 0.3.1's find_zero
    # oracle `continue`s before recording an input, so every find_zero solution ends with no
    # input on record and fails.
    return False, f"{which} {stat}", "no input on record (the program did not load; or evalplus's find_zero oracle)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--retime", action="store_true")
    args = ap.parse_args()
    if not os.environ.get("HUMANEVAL_OVERRIDE_PATH"):
        sys.exit("HUMANEVAL_OVERRIDE_PATH is not set: evalplus would download its dataset")
    if multiprocessing.get_start_method() != "fork":
        sys.exit("the timer watch needs the fork start method (evalplus's check process inherits the wrapper)")
    items = json.load(sys.stdin)

    from evalplus.config import DEFAULT_GT_TIME_LIMIT_FACTOR, DEFAULT_MIN_TIME_LIMIT
    from evalplus.data import get_human_eval_plus, get_human_eval_plus_hash
    from evalplus.evaluate import get_groundtruth

    _watch_timers()
    problems = get_human_eval_plus()
    expected = get_groundtruth(problems, get_human_eval_plus_hash(), [])
    if args.retime:
        expected = _retimed(problems, expected, {it["task_id"] for it in items})
    min_limit, factor = DEFAULT_MIN_TIME_LIMIT * args.budget, DEFAULT_GT_TIME_LIMIT_FACTOR * args.budget
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=_init_worker) as pool:
        futures = {}
        for it in items:
            task = it["task_id"]
            fut = pool.submit(_check, problems[task], it["solution"], expected[task], min_limit, factor)
            futures[fut] = it
        for fut in as_completed(futures):
            it = futures[fut]
            p = problems[it["task_id"]]
            passed, status, error = verdict(fut.result(), {w: p[f"{w}_input"] for w in ("base", "plus")})
            line = {"uid": it["uid"], "passed": passed, "status": status, "error": error}
            print(RESULT + json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
