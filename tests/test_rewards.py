"""The trainer-facing reward functions, called exactly the way TRL's GRPOTrainer and verl's
reward managers call them, must give the rewards the CLI gives on the same rollouts."""

from __future__ import annotations

import asyncio
import inspect
import json
import threading

import pytest
from typer.testing import CliRunner

from rlvr_grade.api import Grader
from rlvr_grade.cli import app
from rlvr_grade.rewards import (
    completion_text,
    compute_score,
    compute_score_batch,
    make_trl_reward,
    make_verl_compute_score,
    trl_reward,
)
from rlvr_grade.sandbox.base import Backend
from rlvr_grade.types import SandboxError
from tests.conftest import read_jsonl, write_jsonl

TESTS = "assert add(1, 2) == 3\nassert add(-1, 1) == 0\n"
ROWS = [
    {"problem": "add", "completion": "def add(a, b):\n    return a + b\n", "tests": TESTS},
    {"problem": "add", "completion": "Here:\n```python\ndef add(a, b):\n    return a + b\n```\n", "tests": TESTS},
    {"problem": "add", "completion": "def add(a, b):\n    return a - b\n", "tests": TESTS},
    {"problem": "add", "completion": "def add(a, b):\n    raise ValueError\n", "tests": TESTS},
    {"problem": "add", "completion": "def add(a, b)\n    return a + b\n", "tests": TESTS},
    {"problem": "sq", "completion": "def sq(x):\n    return x * x\n", "tests": ["assert sq(2) == 4", "assert sq(3) == 9"]},
    {"problem": "sq", "completion": "def sq(x):\n    return x + x\n", "tests": ["assert sq(2) == 4", "assert sq(3) == 9"]},
]


def cli_rewards(tmp_path, rows, *args):
    src = write_jsonl(tmp_path / "cli_in.jsonl", rows)
    out = tmp_path / "cli_out.jsonl"
    res = CliRunner().invoke(app, ["score", str(src), "-o", str(out), "--quiet", "-j", "1", *args])
    assert res.exit_code == 0, res.output
    return [r["reward"] for r in read_jsonl(out)]


def trl_call(fn, prompts, completions, columns):
    """What GRPOTrainer._calculate_rewards passes: prompts, completions, completion_ids, every
    other dataset column as a list, trainer_state, log_extra, log_metric."""
    logged = {}
    out = fn(
        prompts=prompts,
        completions=completions,
        completion_ids=[[1, 2, 3]] * len(completions),
        **columns,
        trainer_state=object(),
        log_extra=lambda column, values: None,
        log_metric=lambda name, value: logged.__setitem__(name, value),
    )
    return out, logged


def test_trl_reward_matches_cli_for_text_and_conversational_completions(tmp_path):
    expected = cli_rewards(tmp_path, ROWS)
    assert expected == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    columns = {"problem": [r["problem"] for r in ROWS], "tests": [r["tests"] for r in ROWS]}
    prompts = [f"Write {r['problem']}" for r in ROWS]
    text, logged = trl_call(trl_reward, prompts, [r["completion"] for r in ROWS], columns)
    assert text == expected
    assert all(isinstance(x, float) for x in text)
    assert logged["rlvr_grade/pass_rate"] == pytest.approx(3 / 7)
    conversational = [[{"role": "assistant", "content": r["completion"]}] for r in ROWS]
    chat_prompts = [[{"role": "user", "content": p}] for p in prompts]
    chat, _ = trl_call(trl_reward, chat_prompts, conversational, columns)
    assert chat == expected
    assert trl_reward.__name__ == "rlvr_grade"  # TRL logs per-function metrics under __name__


def test_trl_reward_humaneval_preset_takes_the_program_prompt_from_prompts(tmp_path, humaneval_problems):
    probs = humaneval_problems[:3]
    rows = []
    for p in probs:
        rows.append({**p, "completion": p["canonical_solution"]})
        rows.append({**p, "completion": "    return None\n"})
    expected = cli_rewards(tmp_path, rows, "--preset", "humaneval")
    assert expected == [1.0, 0.0] * 3
    fn = make_trl_reward(preset="humaneval", reward="fraction")
    columns = {k: [r[k] for r in rows] for k in ("task_id", "test", "entry_point", "canonical_solution")}
    got, _ = trl_call(fn, [r["prompt"] for r in rows], [r["completion"] for r in rows], columns)
    frac = cli_rewards(tmp_path, rows, "--preset", "humaneval", "--reward", "fraction")
    assert got == frac


def test_trl_async_reward_runs_on_trainers_loop_without_blocking_it(tmp_path):
    fn = make_trl_reward(asynchronous=True)
    assert inspect.iscoroutinefunction(fn)  # how GRPOTrainer decides to await it
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    ticks = []

    async def ticker():
        for _ in range(200):
            ticks.append(1)
            await asyncio.sleep(0.005)

    try:
        columns = {"tests": [r["tests"] for r in ROWS]}
        completions = [r["completion"] for r in ROWS]

        async def both():
            t = asyncio.ensure_future(ticker())
            out = await fn(prompts=["p"] * len(ROWS), completions=completions, completion_ids=None, **columns, trainer_state=None)
            n = len(ticks)
            t.cancel()
            return out, n

        got, ticks_during = asyncio.run_coroutine_threadsafe(both(), loop).result(timeout=120)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
    assert got == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    # The ticker first runs when both() yields to the loop: a reward function that graded
    # synchronously on the loop's thread would finish before that, leaving 0 ticks. (Two or
    # more is not guaranteed: a warm pool with cached results can answer within one tick.)
    assert ticks_during >= 1  # the loop kept running while the checks ran


def test_trl_missing_tests_column_is_a_clear_error():
    with pytest.raises(ValueError, match=r"no column 'tests'.*answer"):
        trl_reward(prompts=["p"], completions=["x = 1"], completion_ids=[[1]], answer=["1"], trainer_state=None)


def test_completion_text_handles_message_shapes():
    assert completion_text("abc") == "abc"
    assert completion_text([{"role": "assistant", "content": "x"}]) == "x"
    msgs = [
        {"role": "assistant", "content": "thinking"},
        {"role": "tool", "content": "tool output"},
        {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    ]
    assert completion_text(msgs) == "ab"
    with pytest.raises(TypeError):
        completion_text(42)


def test_verl_compute_score_matches_cli_called_like_each_reward_manager(tmp_path):
    expected = cli_rewards(tmp_path, ROWS)
    # NaiveRewardManager / reward loop: keywords, one response at a time.
    naive = [
        compute_score(data_source="mine", solution_str=r["completion"], ground_truth=r["tests"], extra_info={"index": i})
        for i, r in enumerate(ROWS)
    ]
    assert naive == expected and all(type(x) is float for x in naive)
    # PrimeRewardManager: positionally, ground truth JSON-encoded.
    prime = [compute_score("mine", r["completion"], json.dumps(r["tests"]), None) for r in ROWS]
    assert prime == expected
    # BatchRewardManager: lists in, list out.
    batch = compute_score_batch(
        data_sources=["mine"] * len(ROWS),
        solution_strs=[r["completion"] for r in ROWS],
        ground_truths=[r["tests"] for r in ROWS],
        extra_infos=[None] * len(ROWS),
    )
    assert batch == expected


def test_verl_humaneval_ground_truth_dict_and_dict_results(tmp_path, humaneval_problems):
    p = humaneval_problems[0]
    rows = [{**p, "completion": p["canonical_solution"]}, {**p, "completion": "    return 0\n"}]
    expected = cli_rewards(tmp_path, rows, "--preset", "humaneval")
    fn = make_verl_compute_score(preset="humaneval", return_dict=True)
    gt = json.dumps({"test": p["test"], "entry_point": p["entry_point"], "prompt": p["prompt"]})
    got = [fn("openai_humaneval", r["completion"], gt, {"split": "test"}) for r in rows]
    assert [g["score"] for g in got] == expected
    assert all(set(g) == {"score", "acc", "status", "tests_passed", "tests_total"} for g in got)
    assert [g["status"] for g in got] == ["pass", "fail"]
    # reward_kwargs from verl's config that name grading options apply; others are ignored.
    frac = compute_score("x", "def add(a, b):\n    return 3\n", TESTS, None, reward="fraction", reward_router_address=None)
    assert frac == 0.5


class BrokenBackend(Backend):
    """The infrastructure failing on every check (what cannot be provoked on demand here)."""

    name = "broken"

    def run(self, check):
        raise SandboxError("worker lost")


def test_sandbox_error_is_none_for_trl_and_raises_for_verl():
    grader = Grader(backend=BrokenBackend(), retries=2, retry_delay=0.0)
    with grader:
        trl = make_trl_reward(grader=grader)
        out, logged = trl_call(trl, ["p", "p"], ["x = 1", "x = 2"], {"tests": ["assert x == 1"] * 2})
        assert out == [None, None]  # TRL: NaN, left out of the advantage — never a 0
        assert logged["rlvr_grade/sandbox_errors"] == 2.0
        verl = make_verl_compute_score(grader=grader)
        with pytest.raises(SandboxError, match="not the model"):
            verl("d", "x = 1", "assert x == 1")
        lenient = make_verl_compute_score(grader=grader, on_sandbox_error=0.0)
        assert lenient("d", "x = 1", "assert x == 1") == 0.0
