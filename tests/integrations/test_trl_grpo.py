"""A real trl GRPOTrainer (torch on the CPU, a tiny model and tokenizer built here, nothing
downloaded) trains a few steps with our reward: the rewards flow, the metrics log, and each
setup mistake that used to score every completion 0 stops the run at the first reward call,
naming the fix. `make test-integrations` runs this in its own venv; `make test` skips it.

The model is random, so what it writes is noise. Its vocabulary is words that each begin with
a space and no newline: with preset="humaneval" a completion continues the prompt's last line,
so a prompt whose last line is a comment makes any completion harmless (the problem passes or
fails by its prompt alone: the reward is known in advance), and one whose last line is code
turns every non-empty completion into a syntax error (the model's fault: compile_error, 0)."""

from __future__ import annotations

import os

import pytest

if os.environ.get("RLVR_GRADE_INTEGRATIONS") == "1":  # make test-integrations: missing packages fail
    import torch
    import trl
else:
    torch = pytest.importorskip("torch", reason="torch is not installed: `make test-integrations` runs this")
    trl = pytest.importorskip("trl", reason="trl is not installed: `make test-integrations` runs this")

from datasets import Dataset  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers  # noqa: E402
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast  # noqa: E402

from rlvr_grade import SetupError, make_trl_reward  # noqa: E402

CHECK = "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n"
GOOD = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n# '  # passes whatever follows on the comment line
BAD = 'def add(a, b):\n    """Add two numbers."""\n    return a - b\n# '  # fails whatever follows
CODE_LAST = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n'  # a completion after this does not parse
WORDS = [" x", " y", " z", " one", " two", " foo", " bar", " baz"]


def tokenizer() -> PreTrainedTokenizerFast:
    vocab = {t: i for i, t in enumerate(["<pad>", "<eos>", "<unk>", *WORDS])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Split(" ", "merged_with_next")
    tok.decoder = decoders.Fuse()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
    # For the conversational datasets: the messages' contents, one after the other.
    fast.chat_template = "{% for m in messages %}{{ m['content'] }}{% endfor %}"
    return fast


def tiny_model(vocab_size: int) -> LlamaForCausalLM:
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=128,
                         pad_token_id=0, eos_token_id=1, bos_token_id=1)
    return LlamaForCausalLM(config)


def humaneval_rows(prompts: list[str], conversational: bool = False) -> list[dict]:
    rows = []
    for i, p in enumerate(prompts):
        row = {"task_id": f"Tiny/{i}", "test": CHECK, "entry_point": "add"}
        if conversational:
            row["prompt"] = [{"role": "user", "content": " x y"}]
            row["code_prompt"] = p
        else:
            row["prompt"] = p
        rows.append(row)
    return rows


def trainer(tmp_path, rows: list[dict], reward, steps: int = 1, **config):
    tok = tokenizer()
    args = trl.GRPOConfig(
        output_dir=str(tmp_path / "out"),
        per_device_train_batch_size=8,
        num_generations=2,  # 8 completions = 4 prompts x 2 per step
        max_completion_length=8,
        max_steps=steps,
        learning_rate=1e-3,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        seed=0,
        dataloader_num_workers=0,
        **config,
    )
    return trl.GRPOTrainer(model=tiny_model(len(tok)), processing_class=tok, reward_funcs=reward,
                           args=args, train_dataset=Dataset.from_list(rows))


def last_batch(t) -> list[tuple[str, str, float, str]]:
    """(prompt, completion, reward, status) of the last generation batch, as TRL logged them."""
    logs = t._logs
    return list(zip(logs["prompt"], logs["completion"], logs["rewards"]["rlvr_grade"],
                    logs["extra"]["rlvr_grade/status"], strict=True))


def test_grpo_trains_with_the_reward_and_logs_its_metrics(tmp_path):
    rows = humaneval_rows([GOOD, BAD, GOOD, CODE_LAST])
    t = trainer(tmp_path, rows, make_trl_reward(preset="humaneval"), steps=3)
    t.train()
    logged = [h for h in t.state.log_history if "rlvr_grade/pass_rate" in h]
    assert len(logged) == 3  # one entry per step, each with our metrics
    batch = last_batch(t)
    assert len(batch) == 8
    for prompt, completion, reward, status in batch:
        assert "\n" not in completion
        if prompt in (GOOD,):
            assert (reward, status) == (1.0, "pass")
        elif prompt == BAD:
            assert (reward, status) == (0.0, "fail")
        else:  # the model's own syntax error: 0, and not a setup problem
            assert (reward, status) == ((1.0, "pass") if not completion.strip() else (0.0, "compile_error"))
    for entry in logged:
        assert entry["rlvr_grade/invalid_inputs"] == 0.0
        assert entry["rlvr_grade/sandbox_errors"] == 0.0
        # binary reward, nothing invalid or lost: the pass rate is the mean reward TRL computed
        assert entry["rlvr_grade/pass_rate"] == pytest.approx(entry["rewards/rlvr_grade/mean"])
        assert 0.0 < entry["rewards/rlvr_grade/mean"] < 1.0
    print("\nGRPO steps:", [{k: round(v, 4) for k, v in h.items() if "rlvr_grade" in k or k in ("step", "reward", "loss")}
                            for h in logged])
    print("last batch:", [(p[-12:], c, r, s) for p, c, r, s in batch])


def test_conversational_prompts_with_a_code_prompt_column_train(tmp_path):
    rows = humaneval_rows([GOOD, BAD, GOOD, BAD], conversational=True)
    t = trainer(tmp_path, rows, make_trl_reward(preset="humaneval", prompt_col="code_prompt"))
    t.train()
    (entry,) = [h for h in t.state.log_history if "rlvr_grade/pass_rate" in h]
    assert entry["rewards/rlvr_grade/mean"] == 0.5 and entry["rlvr_grade/invalid_inputs"] == 0.0


@pytest.mark.parametrize(
    "setup, match",
    [
        ("conversational, no prompt_col", r"conversational.*prompt_col='code_prompt'"),
        ("conversational, prompt_col='prompt'", r"prompt_col='prompt' names that same column"),
        ("no entry_point column", r"no column 'entry_point'"),
        ("tests that do not parse", r"(?s)2 of 8 rows.*task_id 'Tiny/1', rows \d+, \d+: tests do not parse"),
        ("remove_unused_columns=True", r"no column 'test'.*remove_unused_columns"),
    ],
)
def test_each_setup_mistake_stops_the_run_at_the_first_reward_call_naming_the_fix(tmp_path, setup, match):
    prompt_col = None
    config = {}
    rows = humaneval_rows([GOOD, BAD, GOOD, BAD], conversational=setup.startswith("conversational"))
    if setup == "conversational, prompt_col='prompt'":
        prompt_col = "prompt"
    elif setup == "no entry_point column":
        for r in rows:
            del r["entry_point"]
    elif setup == "tests that do not parse":
        rows[1]["test"] = "def check(candidate):\n    assert candidate(1, 2) == = 3\n"
    elif setup == "remove_unused_columns=True":
        config["remove_unused_columns"] = True
    t = trainer(tmp_path, rows, make_trl_reward(preset="humaneval", prompt_col=prompt_col), **config)
    with pytest.raises(SetupError, match=match):
        t.train()
    assert t.state.global_step == 0  # not one optimizer step against a made-up 0


def test_on_invalid_input_none_gives_the_bad_rows_no_reward_and_counts_them(tmp_path):
    rows = humaneval_rows([GOOD, BAD, GOOD, BAD])
    rows[2]["entry_point"] = None
    t = trainer(tmp_path, rows, make_trl_reward(preset="humaneval", on_invalid_input=None))
    t.train()
    (entry,) = [h for h in t.state.log_history if "rlvr_grade/pass_rate" in h]
    assert entry["rlvr_grade/invalid_inputs"] == 2.0  # Tiny/2's two completions
    for _, _, reward, status in last_batch(t):
        if status == "invalid_input":
            assert reward != reward  # NaN: TRL leaves it out of the group's advantage
    assert sum(s == "invalid_input" for *_, s in last_batch(t)) == 2
    # the mean over the rows that have a reward: Tiny/0 passes, Tiny/1 and Tiny/3 fail
    assert entry["rewards/rlvr_grade/mean"] == pytest.approx(1 / 3)
