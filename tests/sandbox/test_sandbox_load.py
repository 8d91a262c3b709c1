"""Load must not turn into false timeouts: CPU time is the limit, wall time a loose backstop.
HumanEval's 164 canonical solutions, 8 checks at once on however few cores, while the test
itself keeps every core busy with spinning processes: three rounds, all pass, same rewards."""

from __future__ import annotations

import os
import subprocess
import sys

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions
from tests.conftest import requires_root


@requires_root
def test_humaneval_canonical_pass_at_concurrency_8_under_load_three_times(humaneval_problems):
    rows = [{**p, "completion": p["canonical_solution"]} for p in humaneval_problems]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        with Grader(ScoreOptions(checks=CheckOptions(preset="humaneval"), concurrency=8)) as grader:
            rounds = [grader.grade(rows) for _ in range(3)]
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    for outcomes in rounds:
        bad = [(p["task_id"], o.status, o.error) for p, o in zip(humaneval_problems, outcomes, strict=True) if o.status != "pass"]
        assert not bad
    rewards = [[o.reward for o in outcomes] for outcomes in rounds]
    assert rewards[0] == rewards[1] == rewards[2] == [1.0] * 164
