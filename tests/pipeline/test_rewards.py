"""The trainer-facing reward functions, called exactly the way TRL's GRPOTrainer and verl's
reward managers call them, must give the rewards the CLI gives on the same rollouts."""

from __future__ import annotations

import asyncio
import inspect
import json
import threading

import pytest
from typer.testing import CliRunner

import rlvr_grade
from rlvr_grade import (
    Grader,
    SandboxError,
    SetupError,
    completion_text,
    compute_score,
    compute_score_batch,
    make_trl_reward,
    make_verl_compute_score,
    option_names,
    trl_reward,
)
from rlvr_grade.cli import app
from rlvr_grade.sandbox.base import Backend
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
    """What GRPOTrainer._calculate_rewards passes (trl 1.16): prompts (the dataset's `prompt`
    column), completions, completion_ids, every other dataset column but `prompt`, `completion`
    and `completion_ids` as a list, trainer_state, log_extra, log_metric. The columns logged
    through log_extra come back under logged["extra"]."""
    assert not {"prompt", "completion", "completion_ids"} & set(columns), "TRL never passes these as columns"
    logged: dict = {"extra": {}}
    out = fn(
        prompts=prompts,
        completions=completions,
        completion_ids=[[1, 2, 3]] * len(completions),
        **columns,
        trainer_state=object(),
        log_extra=lambda column, values: logged["extra"].__setitem__(column, list(values)),
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
        assert "rlvr_grade/pass_rate" not in logged  # nothing was graded: no rate, rather than a 0
        verl = make_verl_compute_score(grader=grader)
        with pytest.raises(SandboxError, match="not the model"):
            verl("d", "x = 1", "assert x == 1")
        lenient = make_verl_compute_score(grader=grader, on_sandbox_error=0.0)
        assert lenient("d", "x = 1", "assert x == 1") == 0.0


# -- the package face ---------------------------------------------------------------------------
def test_import_rlvr_grade_loads_neither_the_cli_nor_arrow():
    """`import rlvr_grade` is free (and so is every sandboxed worker's import of the package);
    a trainer's `from rlvr_grade import ...` loads the library, not the CLI's typer and rich."""
    import subprocess
    import sys

    heavy = ("typer", "click", "rich", "pyarrow")
    code = (
        "import sys, json\n"
        "import rlvr_grade\n"
        "bare = sorted(m for m in sys.modules if m.split('.')[0] in HEAVY or m.startswith('rlvr_grade.'))\n"
        "from rlvr_grade import Grader, grade, make_trl_reward, compute_score, make_verl_compute_score\n"
        "trainer = sorted(m for m in sys.modules if m.split('.')[0] in HEAVY)\n"
        "print(json.dumps([bare, trainer]))\n"
    ).replace("HEAVY", repr(heavy))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    bare, trainer = json.loads(out.stdout)
    assert bare == []
    assert trainer == []


def test_the_face_lists_and_resolves_every_public_name():
    import importlib

    wanted = {"Grader", "grade", "agrade", "ScoreOptions", "make_options", "score_file", "Outcome",
              "make_trl_reward", "trl_reward", "make_verl_compute_score", "compute_score", "compute_score_batch",
              "SetupError", "SandboxError", "InputError", "StrictError", "CacheError"}
    assert wanted <= set(rlvr_grade.__all__)
    assert sorted(rlvr_grade.__all__) == sorted(rlvr_grade._EXPORTS)
    assert set(rlvr_grade.__all__) <= set(dir(rlvr_grade))
    for name in rlvr_grade.__all__:
        home = importlib.import_module(rlvr_grade._EXPORTS[name])
        assert getattr(rlvr_grade, name) is getattr(home, name)
    with pytest.raises(AttributeError):
        rlvr_grade.no_such_name  # noqa: B018
    # Kept for code written against 0.1: the same objects.
    from rlvr_grade import rewards

    assert rewards.make_trl_reward is make_trl_reward and rewards.compute_score is compute_score


def test_every_grading_option_passes_through_both_adapters():
    """An option added to the library (e.g. an environment) needs no change in the adapters."""
    from rlvr_grade.api import make_options

    defaults = make_options()

    def default_of(name):
        alias = {"timeout": defaults.checks.limits.cpu_s, "wall_timeout": defaults.checks.limits.wall_s,
                 "memory": defaults.checks.limits.memory_mb, "reward": defaults.reward.shape}
        if name in alias:
            return alias[name]
        for obj in (defaults, defaults.checks, defaults.reward, defaults.checks.limits):
            if hasattr(obj, name):
                return getattr(obj, name)
        raise AssertionError(name)

    for name in option_names():
        if name == "tests_col":
            continue
        assert make_trl_reward(**{name: default_of(name)}).options == defaults, name
        make_verl_compute_score(**{name: default_of(name)})
    assert make_trl_reward(timeout=3).options.checks.limits.cpu_s == 3
    with pytest.raises(TypeError, match="unknown grading option 'timout'"):
        make_trl_reward(timout=3)


# -- setup mistakes raise; the model's mistakes score 0 ------------------------------------------
def humaneval_batch(problems, completions_per_problem=("canonical", "    return None\n")):
    """A TRL batch for HumanEval rows: the columns TRL passes (never `prompt`) and the prompts."""
    rows = []
    for p in problems:
        for c in completions_per_problem:
            rows.append({**p, "completion": p["canonical_solution"] if c == "canonical" else c})
    columns = {k: [r[k] for r in rows] for k in ("task_id", "test", "entry_point")}
    return rows, columns


def test_trl_humaneval_with_conversational_prompts_needs_a_code_prompt_column(tmp_path, humaneval_problems):
    rows, columns = humaneval_batch(humaneval_problems[:2])
    chat = [[{"role": "user", "content": "Complete:\n" + r["prompt"]}] for r in rows]
    completions = [r["completion"] for r in rows]
    # No prompt_col: there is no code prompt to put before the completion. Every completion
    # used to score 0.0 (invalid_input), the canonical solutions included.
    with pytest.raises(SetupError, match=r"conversational.*prompt_col='code_prompt'"):
        trl_call(make_trl_reward(preset="humaneval"), chat, completions, columns)
    # prompt_col="prompt": TRL passes that column as `prompts` (the messages), never as a column.
    with pytest.raises(SetupError, match=r"prompt_col='prompt' names that same column"):
        trl_call(make_trl_reward(preset="humaneval", prompt_col="prompt"), chat, completions, columns)
    # The fix the message names.
    fn = make_trl_reward(preset="humaneval", prompt_col="code_prompt")
    got, logged = trl_call(fn, chat, completions, {**columns, "code_prompt": [r["prompt"] for r in rows]})
    assert got == cli_rewards(tmp_path, rows, "--preset", "humaneval") == [1.0, 0.0, 1.0, 0.0]
    assert logged["rlvr_grade/invalid_inputs"] == 0.0
    # A code prompt column with a null in it is that row's problem, named with its task_id.
    code = [r["prompt"] for r in rows]
    code[2] = None
    with pytest.raises(SetupError, match=r"task_id 'HumanEval/1', row 2: the code prompt \(column 'code_prompt'\) is NoneType"):
        trl_call(fn, chat, completions, {**columns, "code_prompt": code})
    with pytest.raises(SetupError, match=r"TRL passed no such column"):
        trl_call(fn, chat, completions, columns)


def test_trl_missing_entry_point_raises_and_can_give_no_reward_instead(humaneval_problems):
    rows, columns = humaneval_batch(humaneval_problems[:2])
    prompts = [r["prompt"] for r in rows]
    completions = [r["completion"] for r in rows]
    no_column = {k: v for k, v in columns.items() if k != "entry_point"}
    with pytest.raises(SetupError, match=r"no column 'entry_point'"):
        trl_call(make_trl_reward(preset="humaneval"), prompts, completions, no_column)
    columns["entry_point"] = [None, None, *columns["entry_point"][2:]]
    with pytest.raises(SetupError, match=r"(?s)2 of 4 rows.*task_id 'HumanEval/0', rows 0, 1: entry_point column 'entry_point' is null"):
        trl_call(make_trl_reward(preset="humaneval"), prompts, completions, columns)
    lenient = make_trl_reward(preset="humaneval", on_invalid_input=None)
    got, logged = trl_call(lenient, prompts, completions, columns)
    assert got == [None, None, 1.0, 0.0]  # no reward, not a 0: TRL leaves them out of the advantage
    assert logged["rlvr_grade/invalid_inputs"] == 2.0
    assert logged["rlvr_grade/pass_rate"] == 0.5  # over the rows that were graded
    assert logged["extra"]["rlvr_grade/status"] == ["invalid_input", "invalid_input", "pass", "fail"]


def test_trl_unparsable_tests_raise_but_an_unparsable_completion_is_the_models_zero():
    tests = ["assert add(1, 2) == 3\n", "assert add(1, 2) == = 3\n"]
    with pytest.raises(SetupError, match=r"row 1: tests do not parse"):
        trl_call(trl_reward, ["p", "p"], ["def add(a, b):\n    return a + b\n"] * 2, {"tests": tests})
    completions = ["def add(a, b):\n    return a + b\n", "def add(a, b)\n    return a + b\n", "```python\ndef add(a, b:\n```"]
    got, logged = trl_call(trl_reward, ["p"] * 3, completions, {"tests": [tests[0]] * 3})
    assert got == [1.0, 0.0, 0.0]
    assert logged["extra"]["rlvr_grade/status"] == ["pass", "compile_error", "compile_error"]
    assert logged["rlvr_grade/invalid_inputs"] == 0.0


def test_trl_missing_tests_column_names_the_likely_cause():
    call = {"prompts": ["p"], "completions": ["x = 1"], "completion_ids": [[1]], "trainer_state": None}
    with pytest.raises(SetupError, match=r"remove_unused_columns"):  # TRL then passes no column at all
        trl_reward(**call)
    with pytest.raises(SetupError, match=r"no column 'tests'.*preset='humaneval'"):
        trl_reward(**call, task_id=["HumanEval/0"], test=["def check(c): pass"], entry_point=["f"])
    with pytest.raises(SetupError, match=r"no column 'tests'.*preset='mbpp'"):
        trl_reward(**call, test_list=[["assert f() == 1"]])


def test_trl_configuration_mistakes_raise_when_the_reward_is_made():
    with pytest.raises(SetupError, match="read by preset='humaneval' only"):
        make_trl_reward(prompt_col="code_prompt")
    with pytest.raises(SetupError, match="never passes"):
        make_trl_reward(tests_col="prompt")
    with pytest.raises(SetupError, match="never passes"):
        make_trl_reward(preset="humaneval", prompt_col="completion")
    with pytest.raises(TypeError, match="give the options to the Grader"):
        make_trl_reward(grader=Grader(), timeout=5)
    with pytest.raises(ValueError, match="on_invalid_input"):
        make_trl_reward(on_invalid_input=0.0)


def test_trl_async_reward_raises_setup_errors_too(humaneval_problems):
    rows, columns = humaneval_batch(humaneval_problems[:1])
    chat = [[{"role": "user", "content": r["prompt"]}] for r in rows]
    fn = make_trl_reward(preset="humaneval", asynchronous=True)
    with pytest.raises(SetupError, match="conversational"):
        asyncio.run(fn(prompts=chat, completions=[r["completion"] for r in rows], completion_ids=None, **columns))


def test_verl_rows_the_model_cannot_have_broken_raise_naming_the_fix(humaneval_problems):
    good = "def add(a, b):\n    return a + b\n"
    with pytest.raises(SetupError, match=r"(?s)the row cannot be graded.*ground_truth is None.*reward_model.ground_truth"):
        compute_score("mine", good, None, {})
    with pytest.raises(SetupError, match=r"tests do not parse"):
        compute_score("mine", good, "assert add(1, 2) == = 3", {})
    p = humaneval_problems[0]
    fn = make_verl_compute_score(preset="humaneval", return_dict=True)
    gt = json.dumps({"test": p["test"], "prompt": p["prompt"]})  # no entry_point
    with pytest.raises(SetupError, match=r"missing column 'entry_point'"):
        fn("openai_humaneval", p["canonical_solution"], gt, {"task_id": p["task_id"]})
    # from extra_info, the same row is complete
    full = fn("openai_humaneval", p["canonical_solution"], gt, {"entry_point": p["entry_point"]})
    assert (full["score"], full["status"]) == (1.0, "pass")
    lenient = make_verl_compute_score(preset="humaneval", return_dict=True, on_invalid_input=0.0)
    out = lenient("openai_humaneval", p["canonical_solution"], gt, {})
    assert (out["score"], out["status"]) == (0.0, "invalid_input")
    # The batch manager: one bad row stops the batch, named.
    with pytest.raises(SetupError, match=r"1 of 3 rows.*\n  row 1: tests do not parse"):
        compute_score_batch(["m"] * 3, [good] * 3, [TESTS, "assert add(1, 2) == = 3", TESTS], [None] * 3)
    # The model's syntax error is a 0, not a setup problem.
    assert compute_score("mine", "def add(a, b)\n    return a + b\n", TESTS, {}) == 0.0


def test_verl_reward_kwargs_that_are_no_option_raise_instead_of_being_ignored():
    with pytest.raises(TypeError, match=r"'timout'.*valid: .*timeout"):
        compute_score("x", "def add(a, b):\n    return a + b\n", TESTS, None, timout=5)
    # what verl's reward loop itself adds is not ours to judge
    assert compute_score("x", "def add(a, b):\n    return a + b\n", TESTS, None,
                         reward_router_address=None, reward_model_tokenizer=None) == 1.0
    with pytest.raises(TypeError, match="give the options to the Grader"):
        make_verl_compute_score(preset="humaneval", grader=Grader())
