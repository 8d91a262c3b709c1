"""evalplus's own evaluator for HumanEval+ (in the reference venv, unsandboxed), base and plus
tests together, as `evalplus.evaluate` runs them: the dataset is the local file named by
HUMANEVAL_OVERRIDE_PATH (evalplus reads it at import; no download), the expected outputs come
from evalplus's `get_groundtruth` (the canonical solutions run here, timed: evalplus derives each
input's time limit from that time, max(1 s, 4 x reference time)), and every sample goes through
`check_correctness` with evalplus's defaults (fast check: stop at the first failing input) in a
process pool. Only the loop is ours, so that a subset can run and each result streams out.

stdin: a JSON list of {"uid", "task_id", "solution"}; stdout: one result line per sample (see
fidelity/context.py run_driver). A sample passes when base and plus both pass, evalplus's
"HumanEval+" verdict."""

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed

RESULT = "FIDELITY-RESULT "


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not os.environ.get("HUMANEVAL_OVERRIDE_PATH"):
        sys.exit("HUMANEVAL_OVERRIDE_PATH is not set: evalplus would download its dataset")
    items = json.load(sys.stdin)

    from evalplus.config import DEFAULT_GT_TIME_LIMIT_FACTOR, DEFAULT_MIN_TIME_LIMIT
    from evalplus.data import get_human_eval_plus, get_human_eval_plus_hash
    from evalplus.eval import PASS
    from evalplus.evaluate import check_correctness, get_groundtruth

    problems = get_human_eval_plus()
    expected = get_groundtruth(problems, get_human_eval_plus_hash(), [])
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {}
        for n, it in enumerate(items):
            task = it["task_id"]
            fut = pool.submit(check_correctness, "humaneval", n, problems[task], it["solution"], expected[task],
                              False, True, it["uid"], DEFAULT_MIN_TIME_LIMIT, DEFAULT_GT_TIME_LIMIT_FACTOR)
            futures[fut] = it
        for fut in as_completed(futures):
            it = futures[fut]
            r = fut.result()
            base, base_details = r["base"]
            plus, plus_details = r["plus"]
            passed = base == PASS and plus == PASS
            if passed:
                status, error = "pass", ""
            else:
                which, stat, details = ("base", base, base_details) if base != PASS else ("plus", plus, plus_details)
                status = f"{which} {stat}"
                inputs = problems[it["task_id"]][f"{which}_input"]
                n_done = len(details)
                if stat == "timeout":
                    error = f"{which} input #{n_done} of {len(inputs)} exceeded its time limit"
                elif n_done:
                    error = f"{which} input #{n_done - 1}: {repr(inputs[n_done - 1])[:300]}"
                else:
                    # exec failed, the entry point is missing, or HumanEval/32: evalplus 0.3.1's
                    # find_zero oracle `continue`s before recording an input, so every
                    # find_zero solution ends with no input on record and fails.
                    error = "no input on record (the program did not load; or evalplus's find_zero oracle)"
            line = {"uid": it["uid"], "passed": passed, "status": status, "error": error}
            print(RESULT + json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
