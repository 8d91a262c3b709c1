"""Exit codes as `rlvr-grade --help` documents them, through the real CLI: 2 for an output the
grader cannot write, said before any row is graded and naming the path; the summary says where
the executed checks ran, and "cached" when none ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rlvr_grade.cli import app
from tests.conftest import ROOT as CHECKOUT
from tests.conftest import write_jsonl

runner = CliRunner()
ROOT = str(CHECKOUT)
ROWS = [{"completion": "def f():\n    return 1\n", "tests": "assert f() == 1\n"}]


def nothing_graded() -> bool:
    from rlvr_grade.cache import Cache

    path = os.environ["RLVR_GRADE_CACHE"]
    if not os.path.exists(path):
        return True
    with Cache(path) as cache:
        return len(cache) == 0


def error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines and lines[0].startswith("Error: "), output
    assert "Traceback" not in output
    return lines[0]


@pytest.mark.parametrize("target,says", [
    ("missing/dir/x.jsonl", "the folder {tmp}/missing/dir does not exist"),
    ("in.jsonl/x.jsonl", "{tmp}/in.jsonl is not a folder"),
    (".", "cannot write the output {tmp}: it is a directory"),
    ("out.csv", "cannot write {tmp}/out.csv: '.csv' is not an output format"),
    ("out", "cannot write {tmp}/out: a name without a suffix does not say the format"),
    ("/sys/x.jsonl", "cannot write the output /sys/x.jsonl: Permission denied in /sys"),
])
def test_an_output_that_cannot_be_written_is_exit_2_before_any_row_is_graded(tmp_path, target, says):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    out = target if target.startswith("/") else str(tmp_path / target)
    if target == "/sys/x.jsonl" and os.access("/sys", os.W_OK) and os.geteuid() != 0:
        pytest.skip("/sys is writable here")
    res = runner.invoke(app, ["score", str(src), "-o", out, "-q"])
    assert res.exit_code == 2, res.output
    assert says.format(tmp=tmp_path) in error_line(res.output)
    assert nothing_graded()
    assert sorted(os.listdir(tmp_path)) == ["in.jsonl"]  # no partial file, no .part left


@pytest.mark.parametrize("flag", ["--summary-json", "--junit-xml"])
def test_a_report_path_in_a_missing_folder_is_exit_2_before_grading(tmp_path, flag):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), flag, str(tmp_path / "no" / "r.json"), "-q"])
    assert res.exit_code == 2, res.output
    assert f"the folder {tmp_path}/no does not exist" in error_line(res.output)
    assert nothing_graded() and not (tmp_path / "o.jsonl").exists()


def test_the_installed_command_exits_2_naming_the_folder(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    res = subprocess.run([sys.executable, "-m", "rlvr_grade", "score", str(src), "-o", str(tmp_path / "missing" / "x.jsonl")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert res.stderr.splitlines()[0] == f"Error: cannot write the output {tmp_path}/missing/x.jsonl: the folder {tmp_path}/missing does not exist"


def test_a_run_served_from_the_cache_says_cached_not_where_nothing_ran(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    levels = []
    for _ in range(2):
        res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "--summary-json", str(tmp_path / "s.json")])
        assert res.exit_code == 0, res.output
        levels.append(json.loads((tmp_path / "s.json").read_text())["isolation"].get("level"))
    assert levels[0] not in (None, "cached")  # the first run's checks ran in the sandbox
    assert levels[1] == "cached"
    assert "local (cached)" in res.output
