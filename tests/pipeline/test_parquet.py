"""Parquet in, Parquet out: written by pyarrow, read back by pyarrow."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
from typer.testing import CliRunner

from rlvr_grade.cli import app
from tests.conftest import read_jsonl

runner = CliRunner()


def _table() -> pa.Table:
    return pa.table(
        {
            "id": pa.array([10, 11, 12], pa.int32()),
            "completion": ["def f():\n    return 1\n", "def f():\n    return 0\n", None],
            "tests": ["assert f() == 1", "assert f() == 1", "assert f() == 1"],
            "meta": pa.array([{"k": 1.5}, {"k": 2.5}, {"k": None}]),
            "reward": [9.0, 9.0, 9.0],  # a stale reward column from an earlier run is replaced
        }
    )


def test_parquet_roundtrip_keeps_rows_order_and_schema(tmp_path):
    src = tmp_path / "in.parquet"
    pq.write_table(_table(), src, row_group_size=2)
    out = tmp_path / "out.parquet"
    res = runner.invoke(app, ["score", str(src), "-o", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    assert table.num_rows == 3
    assert table.column("id").to_pylist() == [10, 11, 12]
    assert table.schema.field("id").type == pa.int32()
    assert table.schema.field("meta").type == _table().schema.field("meta").type
    assert table.column("meta").to_pylist() == [{"k": 1.5}, {"k": 2.5}, {"k": None}]
    assert table.column("status").to_pylist() == ["pass", "fail", "invalid_input"]
    assert table.column("reward").to_pylist() == [1.0, 0.0, 0.0]
    assert table.schema.field("flags").type == pa.list_(pa.string())
    assert table.schema.names[:4] == ["id", "completion", "tests", "meta"]


def test_parquet_to_jsonl_and_jsonl_to_parquet(tmp_path):
    src = tmp_path / "in.parquet"
    pq.write_table(_table(), src)
    mid = tmp_path / "mid.jsonl"
    assert runner.invoke(app, ["score", str(src), "-o", str(mid), "--quiet"]).exit_code == 0
    rows = read_jsonl(mid)
    assert [r["id"] for r in rows] == [10, 11, 12]
    back = tmp_path / "back.parquet"
    res = runner.invoke(app, ["score", str(mid), "-o", str(back), "--quiet"])
    assert res.exit_code == 0, res.output
    assert pq.read_table(back).column("status").to_pylist() == ["pass", "fail", "invalid_input"]


def test_not_parquet_is_a_clear_error(tmp_path):
    src = tmp_path / "in.parquet"
    src.write_text("hello")
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl")])
    assert res.exit_code == 2
    assert "Parquet" in res.output
