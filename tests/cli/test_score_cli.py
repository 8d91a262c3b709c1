"""The main job end to end through the real CLI and the real local sandbox."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rlvr_grade.cli import app
from tests.conftest import SAMPLES, read_jsonl, write_jsonl

runner = CliRunner()


def score(*args: str):
    return runner.invoke(app, ["score", *args, "--quiet"])


def test_samples_get_the_status_their_kind_implies(tmp_path):
    out = tmp_path / "scored.jsonl"
    summary = tmp_path / "summary.json"
    res = score(str(SAMPLES / "rollouts.jsonl"), "-o", str(out), "--group-col", "problem", "--timeout", "1", "--summary-json", str(summary))
    assert res.exit_code == 0, res.output
    rows = read_jsonl(out)
    expected = {
        "correct": ("pass", 1.0),
        "correct_chat": ("pass", 1.0),
        "wrong": ("fail", 0.0),
        "loop": ("timeout", 0.0),
        "syntax_error": ("compile_error", 0.0),
        "exit_early": ("fail", 0.0),
        "crash": ("runtime_error", 0.0),
    }
    for row in rows:
        assert (row["status"], row["reward"]) == expected[row["kind"]], row
        assert set(row) >= {"problem", "kind", "completion", "tests", "reward", "status", "tests_passed", "tests_total", "duration_ms", "error", "flags", "cached"}
    data = json.loads(summary.read_text())
    assert data["rows"] == 21
    assert data["statuses"]["pass"] == 6
    assert data["pass_rate"] == pytest.approx(6 / 21)
    assert "pass@1" in data["pass_at_k"] and "pass@5" in data["pass_at_k"]


def test_missing_column_is_one_line_error_with_tip(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [{"answer": "x", "tests": "assert True"}])
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl")])
    assert res.exit_code == 2
    assert "Error: input has no column 'completion'" in res.output
    assert "Tip:" in res.output and "--completion-col" in res.output
    assert not (tmp_path / "o.jsonl").exists()


def test_unreadable_file_exits_2(tmp_path):
    res = runner.invoke(app, ["score", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "o.jsonl")])
    assert res.exit_code == 2
    assert "no such file" in res.output


def test_malformed_rows_become_invalid_input_and_the_run_goes_on(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}) + "\n"
        + "{not json\n"
        + json.dumps({"completion": None, "tests": "assert True"}) + "\n"
        + json.dumps({"completion": "x = 1", "tests": "assert x == 1"}) + "\n"
    )
    out = tmp_path / "o.jsonl"
    res = score(str(src), "-o", str(out))
    assert res.exit_code == 0, res.output
    rows = read_jsonl(out)
    assert [r["status"] for r in rows] == ["pass", "invalid_input", "invalid_input", "pass"]
    assert "line 2" in rows[1]["error"] and "JSON" in rows[1]["error"]
    assert "line 3" in rows[2]["error"] and "completion" in rows[2]["error"]


def test_strict_aborts_and_writes_nothing(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"completion": "x=1", "tests": "assert x"}) + "\n{oops\n")
    out = tmp_path / "o.jsonl"
    res = score(str(src), "-o", str(out), "--strict")
    assert res.exit_code == 2
    assert "line 2" in res.output
    assert not out.exists()
    assert not list(tmp_path.glob("*.part"))


def test_early_exit_and_infinite_loop_before_tests_score_zero(tmp_path):
    tests = "assert f() == 1\n"
    rows = [
        {"completion": "import sys\nsys.exit(0)\ndef f():\n    return 1\n", "tests": tests},
        {"completion": "import os\nos._exit(0)\n", "tests": tests},
        {"completion": "while True:\n    pass\n", "tests": tests},
        {"completion": "import atexit, os\natexit.register(os._exit, 0)\ndef f():\n    return 2\n", "tests": tests},
        {"completion": "def f():\n    return 1\n", "tests": tests},
    ]
    out = tmp_path / "o.jsonl"
    res = score(str(write_jsonl(tmp_path / "in.jsonl", rows)), "-o", str(out), "--timeout", "1")
    assert res.exit_code == 0, res.output
    got = [(r["status"], r["reward"]) for r in read_jsonl(out)]
    assert got[0][1] == 0.0 and got[0][0] in ("runtime_error", "fail")
    assert got[1] == ("fail", 0.0)
    assert got[2] == ("timeout", 0.0)
    assert got[3][1] == 0.0
    assert got[4] == ("pass", 1.0)


def test_fail_under_gates(tmp_path):
    rows = [{"completion": "x = 1", "tests": "assert x == 2"}]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    res = score(str(src), "--summary-json", str(tmp_path / "s.json"), "--fail-under", "0.5")
    assert res.exit_code == 1
    assert "below --fail-under" in res.output


def test_stdin_to_stdout_keeps_stdout_clean(tmp_path):
    rows = [{"completion": "x = 1", "tests": "assert x == 1"}, {"completion": "x = 2", "tests": "assert x == 1"}]
    data = "".join(json.dumps(r) + "\n" for r in rows)
    proc = subprocess.run(
        [sys.executable, "-m", "rlvr_grade", "score", "-", "-o", "-"],
        input=data, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["status"] for r in out] == ["pass", "fail"]
    assert "summary" in proc.stderr


def test_gzip_jsonl_in_and_out(tmp_path):
    src = tmp_path / "in.jsonl.gz"
    with gzip.open(src, "wt") as fh:
        fh.write(json.dumps({"completion": "y = 3", "tests": "assert y == 3"}) + "\n")
    out = tmp_path / "o.jsonl.gz"
    res = score(str(src), "-o", str(out))
    assert res.exit_code == 0, res.output
    with gzip.open(out, "rt") as fh:
        assert json.loads(fh.readline())["status"] == "pass"


def test_markdown_fences_are_extracted(tmp_path):
    rows = [
        {"completion": "Sure!\n```python\ndef f():\n    return 1\n```\nand a better one:\n```python\ndef f():\n    return 2\n```", "tests": "assert f() == 2"},
        {"completion": "```\ndef f():\n    return 2\n```", "tests": "assert f() == 2"},
    ]
    out = tmp_path / "o.jsonl"
    assert score(str(write_jsonl(tmp_path / "in.jsonl", rows)), "-o", str(out)).exit_code == 0
    assert [r["status"] for r in read_jsonl(out)] == ["pass", "pass"]
    out2 = tmp_path / "o2.jsonl"
    assert score(str(tmp_path / "in.jsonl"), "-o", str(out2), "--extract", "first").exit_code == 0
    assert [r["status"] for r in read_jsonl(out2)] == ["fail", "pass"]


def test_pytest_style_every_expected_test_must_pass(tmp_path):
    tests = "from solution import f\n\ndef test_one():\n    assert f(1) == 2\n\ndef test_two():\n    assert f(2) == 3\n"
    rows = [
        {"completion": "def f(x):\n    return x + 1\n", "tests": tests},
        {"completion": "def f(x):\n    return 2\n", "tests": tests},
        {"completion": "def f(x):\n    return x + 1\nimport pytest\npytestmark = pytest.mark.skip\n", "tests": tests},
    ]
    out = tmp_path / "o.jsonl"
    res = score(str(write_jsonl(tmp_path / "in.jsonl", rows)), "-o", str(out), "--reward", "fraction")
    assert res.exit_code == 0, res.output
    got = read_jsonl(out)
    assert (got[0]["status"], got[0]["reward"], got[0]["tests_total"]) == ("pass", 1.0, 2)
    assert (got[1]["status"], got[1]["reward"], got[1]["tests_passed"]) == ("fail", 0.5, 1)
    assert got[2]["status"] == "pass"  # pytestmark in solution.py does not reach the test module
