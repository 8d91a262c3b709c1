"""CI reports through the real CLI: baseline diff and --fail-on-regression, JUnit XML read
back with a standard XML parser, GitHub Actions lines, and `summary` of a scored file
agreeing with `score`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rlvr_grade.cli import app
from rlvr_grade.reports import diff_problems
from tests.conftest import read_jsonl, write_jsonl

runner = CliRunner()

GOOD = "def f(x):\n    return x + 1\n"
BAD = "def f(x):\n    return x\n"
TESTS = "assert f(1) == 2\nassert f(2) == 3\n"


def suite(bad: set[str]) -> list[dict]:
    return [{"problem": p, "completion": BAD if p in bad else GOOD, "tests": TESTS} for p in ("p1", "p2", "p3", "p4")]


def score(*args: str, env: dict | None = None):
    # One worker: starting the pool dominates these small runs (each slot warms up pytest).
    return runner.invoke(app, ["score", *args, "--quiet", "-j", "1"], env=env)


def test_baseline_with_more_passes_fails_the_run_and_names_the_regressed_problems(tmp_path):
    base_json = tmp_path / "base.json"
    res = score(str(write_jsonl(tmp_path / "a.jsonl", suite({"p3"}))), "--id-col", "problem", "--summary-json", str(base_json))
    assert res.exit_code == 0, res.output
    base = json.loads(base_json.read_text())
    assert base["problems"] == {"p1": "1/1", "p2": "1/1", "p3": "0/1", "p4": "1/1"}

    now = write_jsonl(tmp_path / "b.jsonl", suite({"p2", "p4"}))
    gated = score(str(now), "--id-col", "problem", "--baseline", str(base_json), "--fail-on-regression", "--summary-json", str(tmp_path / "b.json"))
    assert gated.exit_code == 1, gated.output
    assert "2 problem(s) regressed since the baseline: p2, p4" in gated.output
    assert "regressed: p2  1/1 -> 0/1" in gated.output
    assert "improved: p3  0/1 -> 1/1" in gated.output
    diff = json.loads((tmp_path / "b.json").read_text())["baseline"]
    assert [c["problem"] for c in diff["regressed"]] == ["p2", "p4"] and diff["improved_count"] == 1

    # Without the gate the diff is reported but the run passes.
    report_only = score(str(now), "--id-col", "problem", "--baseline", str(base_json), "--summary-json", str(tmp_path / "c.json"))
    assert report_only.exit_code == 0 and "2 regressed" in report_only.output
    # The same baseline against an equal run: nothing regressed, exit 0.
    same = score(str(tmp_path / "a.jsonl"), "--id-col", "problem", "--baseline", str(base_json), "--fail-on-regression")
    assert same.exit_code == 0, same.output


def test_baseline_without_problem_map_or_missing_is_an_input_error(tmp_path):
    src = write_jsonl(tmp_path / "a.jsonl", suite(set()))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"rows": 4, "pass_rate": 1.0}))
    res = score(str(src), "--baseline", str(old), "--fail-on-regression")
    assert res.exit_code == 2 and "no per-problem results" in res.output and "Tip:" in res.output
    res = score(str(src), "--baseline", str(tmp_path / "nope.json"))
    assert res.exit_code == 2 and "no such file" in res.output
    res = score(str(src), "--summary-json", str(tmp_path / "s.json"), "--fail-on-regression")
    assert res.exit_code == 2 and "needs --baseline" in res.output


def test_group_regression_is_a_drop_in_pass_fraction():
    d = diff_problems({"a": "2/4", "b": "1/3", "c": "3/3", "gone": "1/1"}, {"a": "1/4", "b": "2/6", "c": "3/3", "new": "0/1"})
    assert [c.problem for c in d.regressed] == ["a"]
    assert d.improved == () and d.unchanged == 2  # 1/3 == 2/6
    assert d.missing == ("gone",) and d.new == ("new",)


def test_junit_xml_parses_and_its_counts_match_the_summary(tmp_path):
    rows = suite({"p2"}) + [
        {"problem": "p5", "completion": "while True:\n    pass\n", "tests": TESTS},
        # An error message with characters XML cannot carry, and markup.
        {"problem": "p6", "completion": "def f(x):\n    raise ValueError('\\x00 <b> & \"q\"')\n", "tests": TESTS},
    ]
    src = tmp_path / "in.jsonl"
    write_jsonl(src, rows)
    with open(src, "a") as fh:
        fh.write("{broken json\n")
    junit, summ = tmp_path / "junit.xml", tmp_path / "s.json"
    res = score(str(src), "--id-col", "problem", "--timeout", "1", "--junit-xml", str(junit), "--summary-json", str(summ))
    assert res.exit_code == 0, res.output
    data = json.loads(summ.read_text())
    root = ET.parse(junit).getroot()
    ts = root.find("testsuite")
    cases = ts.findall("testcase")
    assert int(ts.get("tests")) == len(cases) == data["rows"] == 7
    failures = [c for c in cases if c.find("failure") is not None]
    errors = [c for c in cases if c.find("error") is not None]
    assert int(ts.get("failures")) == len(failures)
    assert int(ts.get("errors")) == len(errors) == data["statuses"]["invalid_input"] + data["statuses"]["sandbox_error"] == 1
    assert len(cases) - len(failures) - len(errors) == data["passed"] == 3
    by_name = {c.get("name"): c for c in cases}
    assert by_name["p5"].find("failure").get("type") == "timeout"
    assert by_name["p6"].find("failure").get("type") == "runtime_error"
    assert "<b>" in by_name["p6"].find("failure").get("message")
    assert by_name["line 7"].find("error").get("type") == "invalid_input"
    assert not list(tmp_path.glob("*.part"))


def test_github_actions_notice_error_and_step_summary(tmp_path):
    src = write_jsonl(tmp_path / "a.jsonl", suite({"p1"}))
    step = tmp_path / "step.md"
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(step)}
    ok = score(str(src), "--id-col", "problem", "--summary-json", str(tmp_path / "s.json"), env=env)
    assert ok.exit_code == 0
    assert "::notice title=rlvr-grade::rlvr-grade: pass rate 75.00%25 (3/4); fail 1" in ok.output  # % escaped as GitHub requires
    gate = score(str(src), "--id-col", "problem", "--fail-under", "0.9", env=env)
    assert gate.exit_code == 1
    assert "::error title=rlvr-grade::" in gate.output and "below --fail-under 0.9" in gate.output
    md = step.read_text()
    assert md.count("### rlvr-grade") == 2 and "| pass rate | 75.00% (3/4) |" in md
    quiet = score(str(src), "--summary-json", str(tmp_path / "s2.json"), env={"GITHUB_ACTIONS": ""})
    assert "::notice" not in quiet.output


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_summary_of_a_scored_file_matches_score(tmp_path, fmt):
    rows = []
    for g, bad in (("a", {0}), ("b", set()), ("c", {0, 1, 2})):
        for i in range(3):
            rows.append({"task": g, "i": i, "completion": BAD if i in bad else GOOD, "tests": TESTS})
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    if fmt == "parquet":
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
        src = tmp_path / "in.parquet"
    out = tmp_path / f"scored.{fmt}"
    s1 = tmp_path / "s1.json"
    assert score(str(src), "-o", str(out), "--group-col", "task", "--summary-json", str(s1)).exit_code == 0
    res = runner.invoke(app, ["summary", str(out), "--group-col", "task", "--json"])
    assert res.exit_code == 0, res.output
    from_file = json.loads(res.stdout)
    from_score = json.loads(s1.read_text())
    for key in ("wall_s", "throughput_rows_per_s", "backend", "isolation"):
        from_score.pop(key)
    assert from_file == from_score
    assert from_file["problems"] == {"a": "2/3", "b": "3/3", "c": "0/3"}
    assert from_file["group_pass_rate_histogram"]["1"] == 1
    table = runner.invoke(app, ["summary", str(out), "--group-col", "task"])
    assert table.exit_code == 0 and "pass@k" in table.output and "sandbox" not in table.output


def test_summary_problem_map_cap_and_unscored_input(tmp_path):
    rows = [{"id": f"r{i}", "completion": GOOD, "tests": TESTS} for i in range(5)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "scored.jsonl"
    assert score(str(src), "-o", str(out)).exit_code == 0
    capped = json.loads(runner.invoke(app, ["summary", str(out), "--id-col", "id", "--json", "--summary-problems", "2"]).stdout)
    assert capped["problems"] == {"r0": "1/1", "r1": "1/1"} and capped["problems_truncated"] is True
    off = json.loads(runner.invoke(app, ["summary", str(out), "--json", "--summary-problems", "0"]).stdout)
    assert "problems" not in off
    by_row = json.loads(runner.invoke(app, ["summary", str(out), "--json"]).stdout)
    assert by_row["problems_key"] == "#row" and list(by_row["problems"])[:2] == ["#0", "#1"]
    res = runner.invoke(app, ["summary", str(src)])
    assert res.exit_code == 2 and "no 'status' column" in res.output
    assert len(read_jsonl(out)) == 5
