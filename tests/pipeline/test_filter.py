"""`rlvr-grade filter` through the real CLI: group pass-rate ranges, row rules, grading on the
fly, Parquet round trips, strict range parsing, and no partial output on errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rlvr_grade.cli import app
from rlvr_grade.filtering import parse_range
from tests.conftest import read_jsonl, write_jsonl

runner = CliRunner()
GOOD = "def f(x):\n    return x + 1\n"
BAD = "def f(x):\n    return x\n"
TESTS = "assert f(1) == 2\nassert f(2) == 3\n"


def unscored_groups() -> list[dict]:
    """mixed (2 of 4 pass), solved (4/4), hopeless (0/4), onefail (3/4) — interleaved."""
    plan = {"mixed": [1, 0, 1, 0], "solved": [1, 1, 1, 1], "hopeless": [0, 0, 0, 0], "onefail": [1, 1, 0, 1]}
    rows = []
    for i in range(4):
        for task, oks in plan.items():
            rows.append({"task": task, "i": i, "completion": GOOD if oks[i] else BAD, "tests": TESTS})
    return rows


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    d = tmp_path_factory.mktemp("scored")
    src = write_jsonl(d / "in.jsonl", unscored_groups())
    out = d / "scored.jsonl"
    res = runner.invoke(app, ["score", str(src), "-o", str(out), "--quiet", "-j", "1"])
    assert res.exit_code == 0, res.output
    return out


def filt(*args: str):
    return runner.invoke(app, ["filter", *args])


def test_group_pass_rate_open_interval_keeps_exactly_the_mixed_groups(scored, tmp_path):
    out = tmp_path / "mixed.jsonl"
    res = filt(str(scored), "-o", str(out), "--group-col", "task", "--group-pass-rate", "0<x<1")
    assert res.exit_code == 0, res.output
    kept = read_jsonl(out)
    assert sorted({r["task"] for r in kept}) == ["mixed", "onefail"]
    assert len(kept) == 8
    assert [(r["task"], r["i"]) for r in kept] == [(t, i) for i in range(4) for t in ("mixed", "onefail")]  # input order
    assert "kept 8 of 16 rows (2 of 4 groups)" in res.output
    assert "dropped 1 group(s): pass rate 0, not in 0<x<1" in res.output
    assert "dropped 1 group(s): pass rate 1, not in 0<x<1" in res.output
    # The numbers agree with `summary`: every kept group is in a mixed bucket.
    summ = json.loads(runner.invoke(app, ["summary", str(out), "--group-col", "task", "--json"]).stdout)
    assert summ["groups"] == 2
    hist = summ["group_pass_rate_histogram"]
    assert hist["0"] == 0 and hist["1"] == 0 and sum(hist.values()) == 2


def test_closed_and_one_sided_ranges(scored, tmp_path):
    out = tmp_path / "o.jsonl"
    assert filt(str(scored), "-o", str(out), "--group-col", "task", "--group-pass-rate", "0<=x<=0.5").exit_code == 0
    assert sorted({r["task"] for r in read_jsonl(out)}) == ["hopeless", "mixed"]
    assert filt(str(scored), "-o", str(out), "--group-col", "task", "--group-pass-rate", "x>=0.75").exit_code == 0
    assert sorted({r["task"] for r in read_jsonl(out)}) == ["onefail", "solved"]
    assert filt(str(scored), "-o", str(out), "--group-col", "task", "--group-pass-rate", "x==0").exit_code == 0
    assert {r["task"] for r in read_jsonl(out)} == {"hopeless"}


def test_group_rule_then_row_rule_gives_passing_solutions_of_mixed_problems(scored, tmp_path):
    out = tmp_path / "o.jsonl"
    res = filt(str(scored), "-o", str(out), "--group-col", "task", "--group-pass-rate", "0<x<1", "--status", "pass")
    assert res.exit_code == 0, res.output
    kept = read_jsonl(out)
    assert len(kept) == 5 and all(r["status"] == "pass" for r in kept)
    assert "dropped 3 row(s): status not in {pass}" in res.output


def test_row_rules_reward_status_and_flags(tmp_path):
    rows = [
        {"id": 0, "reward": 1.0, "status": "pass", "flags": []},
        {"id": 1, "reward": 0.5, "status": "fail", "flags": ["reads_frame"]},
        {"id": 2, "reward": 0.0, "status": "timeout", "flags": []},
        {"id": 3, "reward": None, "status": "sandbox_error", "flags": []},
        {"id": 4, "reward": 1.0, "status": "pass", "flags": ["patches_builtins", "reads_frame"]},
    ]
    src = write_jsonl(tmp_path / "scored.jsonl", rows)
    out = tmp_path / "o.jsonl"

    def ids(*args):
        res = filt(str(src), "-o", str(out), *args)
        assert res.exit_code == 0, res.output
        return [r["id"] for r in read_jsonl(out)], res.output

    got, text = ids("--min-reward", "0.5")
    assert got == [0, 1, 4]
    assert "dropped 1 row(s): reward is null (sandbox_error)" in text and "dropped 1 row(s): reward < 0.5" in text
    assert ids("--status", "pass,timeout")[0] == [0, 2, 4]
    assert ids("--no-flags")[0] == [0, 2, 3]
    assert ids("--flag", "reads_frame")[0] == [1, 4]
    assert ids("--drop-flag", "patches_builtins")[0] == [0, 1, 2, 3]
    assert ids("--max-reward", "0.5", "--status", "fail,timeout")[0] == [1, 2]


def test_unscored_input_is_graded_on_the_fly_and_parquet_round_trips(tmp_path):
    rows = unscored_groups()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    out, keep = tmp_path / "out.parquet", tmp_path / "all.parquet"
    res = filt(str(tmp_path / "in.parquet"), "-o", str(out), "--group-col", "task", "--group-pass-rate", "0<x<1", "--save-scored", str(keep), "-j", "1")
    assert res.exit_code == 0, res.output
    assert "grading the input first" in res.output
    table = pq.read_table(out)
    assert table.num_rows == 8 and {"task", "i", "completion", "reward", "status"} <= set(table.column_names)
    assert table.schema.field("i").type == pa.int64()
    assert pq.read_table(keep).num_rows == 16
    refused = filt(str(tmp_path / "in.parquet"), "-o", str(tmp_path / "x.jsonl"), "--no-grade", "--status", "pass")
    assert refused.exit_code == 2 and "no reward columns" in refused.output
    assert not list(tmp_path.glob(".rlvr-filter.*")) and not list(tmp_path.glob("*.part"))


def test_stdin_to_stdout_with_a_group_rule(scored):
    proc = subprocess.run(
        [sys.executable, "-m", "rlvr_grade", "filter", "-", "-o", "-", "--group-col", "task", "--group-pass-rate", "x>0.5"],
        stdin=open(scored, "rb"), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    kept = [json.loads(line) for line in proc.stdout.splitlines()]
    assert {r["task"] for r in kept} == {"solved", "onefail"}
    assert "kept 8 of 16 rows" in proc.stderr


@pytest.mark.parametrize("text", ["0<x<1<2", "0 < y < 1", "x>", "1<x<0", "0.5<x<0.5", "x>1.5", "-1<x", "between 0 and 1", "", "0<x<=1,"])
def test_bad_ranges_are_refused_with_the_accepted_forms(text, tmp_path, scored):
    with pytest.raises(ValueError):
        parse_range(text)
    res = filt(str(scored), "-o", str(tmp_path / "o.jsonl"), "--group-col", "task", "--group-pass-rate", text)
    assert res.exit_code == 2
    assert "--group-pass-rate" in res.output
    assert not (tmp_path / "o.jsonl").exists()


def test_range_forms_parse():
    r = parse_range("0 < x < 1")
    assert 0 not in r and 0.5 in r and 1 not in r
    r = parse_range("0<=x<=0.5")
    assert 0 in r and 0.5 in r and 0.51 not in r
    assert 0.2 in parse_range("0.2<=x") and 0.19 not in parse_range("0.2<=x")
    assert 0 in parse_range("x<1") and 1 not in parse_range("x<1")
    assert 1 in parse_range("x>0") and 0 not in parse_range("x>0")


def test_usage_and_input_errors(scored, tmp_path):
    out = tmp_path / "o.jsonl"
    res = filt(str(scored), "-o", str(out), "--group-pass-rate", "0<x<1")
    assert res.exit_code == 2 and "needs --group-col" in res.output
    res = filt(str(scored), "-o", str(out), "--status", "pass,passed")
    assert res.exit_code == 2 and "unknown status passed" in res.output
    res = filt(str(scored), "-o", str(out), "--group-col", "problem", "--group-pass-rate", "0<x<1")
    assert res.exit_code == 2 and "no column 'problem'" in res.output
    # A scored file with a row that lost its reward columns: an error naming the line, no output.
    bad = tmp_path / "bad.jsonl"
    lines = scored.read_text().splitlines()
    lines[2] = json.dumps({"task": "mixed", "i": 9})
    bad.write_text("\n".join(lines) + "\n")
    res = filt(str(bad), "-o", str(out), "--no-grade", "--status", "pass")
    assert res.exit_code == 2 and "line 3" in res.output
    assert not out.exists() and not list(tmp_path.glob("*.part"))


def test_sandbox_errors_do_not_count_in_a_groups_pass_rate_as_in_summary(tmp_path):
    rows = [
        {"task": "a", "reward": 1.0, "status": "pass"},
        {"task": "a", "reward": None, "status": "sandbox_error"},  # not a failure of the model
        {"task": "b", "reward": 1.0, "status": "pass"},
        {"task": "b", "reward": 0.0, "status": "fail"},
        {"task": "c", "reward": None, "status": "sandbox_error"},
    ]
    src = write_jsonl(tmp_path / "scored.jsonl", rows)
    out = tmp_path / "o.jsonl"
    res = filt(str(src), "-o", str(out), "--group-col", "task", "--group-pass-rate", "0<x<1")
    assert res.exit_code == 0, res.output
    assert [r["task"] for r in read_jsonl(out)] == ["b", "b"]
    assert "pass rate 1, not in 0<x<1" in res.output and "no graded rows in the group" in res.output
    hist = json.loads(runner.invoke(app, ["summary", str(src), "--group-col", "task", "--json"]).stdout)["group_pass_rate_histogram"]
    assert hist["1"] == 1 and hist["(0.25,0.5]"] == 1


# -- work folders a killed filter run leaves behind --------------------------------------------

def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_sweep_takes_only_dead_unlocked_work_folders_and_never_follows_a_symlink(tmp_path):
    import fcntl
    import os

    from rlvr_grade.filtering import sweep_workdirs

    dead = _dead_pid()
    gone = tmp_path / f".rlvr-filter.{dead}.abc"
    gone.mkdir()
    (gone / "scored.jsonl").write_text("{}\n")
    held = tmp_path / f".rlvr-filter.{dead}.held"  # its pid is gone, but someone holds its lock
    held.mkdir()
    mine = tmp_path / f".rlvr-filter.{os.getpid()}.live"
    mine.mkdir()
    other = tmp_path / ".rlvr-filter.notapid"
    other.mkdir()
    target = tmp_path / "precious"
    target.mkdir()
    (target / "keep.txt").write_text("x")
    link = tmp_path / f".rlvr-filter.{dead}.link"
    link.symlink_to(target)
    fd = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert sweep_workdirs(str(tmp_path)) == [str(gone)]
    finally:
        os.close(fd)
    assert not gone.exists() and held.exists() and mine.exists() and other.exists()
    assert link.is_symlink() and (target / "keep.txt").read_text() == "x"


@pytest.mark.slow
@pytest.mark.skipif(__import__("os").geteuid() != 0, reason="grades in the isolated local sandbox")
def test_a_sigkilled_filter_runs_work_folder_is_removed_by_the_next_run(tmp_path):
    """A filter run grading its input keeps the scored copy in a work folder beside the output;
    SIGKILLed, it cannot remove it. The next filter run into that folder does."""
    import os
    import signal
    import time

    from tests.pipeline.test_cache import ROOT, _reap_slot_cgroups

    slow = [{"completion": f"import time\ntime.sleep(0.05)\ndef f(x):\n    return x + {i % 2}\n",
             "tests": "assert f(1) == 2"} for i in range(60)]
    src = write_jsonl(tmp_path / "in.jsonl", slow)
    out = tmp_path / "kept.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "rlvr_grade", "filter", str(src), "-o", str(out), "--min-reward", "1"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:  # grading has begun: the scored copy is being written in the work folder
            folders = list(tmp_path.glob(f".rlvr-filter.{proc.pid}.*"))
            if folders and any(f.name.startswith(".scored") or f.name.startswith("scored") for f in folders[0].iterdir()):
                break
            assert proc.poll() is None, "the run finished before the kill point"
            assert time.monotonic() < deadline, "grading never started"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _reap_slot_cgroups(proc.pid)
    assert folders[0].exists()
    small = write_jsonl(tmp_path / "small.jsonl", [{"completion": GOOD, "tests": "assert f(1) == 2"}])
    done = subprocess.run([sys.executable, "-m", "rlvr_grade", "filter", str(small), "-o", str(tmp_path / "again.jsonl")],
                          cwd=ROOT, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not folders[0].exists()
    assert [p for p in os.listdir(tmp_path) if p.startswith(".rlvr-filter.")] == []
