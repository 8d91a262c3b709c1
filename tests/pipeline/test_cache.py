"""The content-hash cache: key derivation, the SQLite store, and resume after SIGKILL through
the real CLI and the real local sandbox."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rlvr_grade import cache as cache_mod
from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.cache import Cache, CacheError, cache_key, runtime_fingerprint
from rlvr_grade.cli import app
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Check, Judge, Limits, Outcome, Rollout
from rlvr_harness.wire import SuiteOptions
from tests.conftest import ROOT, read_jsonl, requires_root, write_jsonl

runner = CliRunner()

# -- key derivation ---------------------------------------------------------------------------

BASE = Check(style="asserts", program="def f():\n    return 1\n", tests="assert f() == 1\n", expected_tests=("check:1",))
RUNTIME = runtime_fingerprint({"backend": "local", "python": "3.11.2", "pytest": "8.3.0", "isolated": True})


def test_every_input_of_the_reward_changes_the_key():
    variants = {
        "base": (BASE, RewardConfig(), RUNTIME),
        "program": (replace(BASE, program="def f():\n    return 2\n"), RewardConfig(), RUNTIME),
        "tests": (replace(BASE, tests="assert f() == 2\n"), RewardConfig(), RUNTIME),
        "style": (replace(BASE, style="pytest"), RewardConfig(), RUNTIME),
        "options": (replace(BASE, options=SuiteOptions(guard=False)), RewardConfig(), RUNTIME),
        "judge": (replace(BASE, judge=Judge(compare="exact")), RewardConfig(), RUNTIME),
        "setup": (replace(BASE, setup="import math"), RewardConfig(), RUNTIME),
        "language": (replace(BASE, language="cpp"), RewardConfig(), RUNTIME),
        "expected": (replace(BASE, expected=("1\n",)), RewardConfig(), RUNTIME),
        "expected_tests": (replace(BASE, expected_tests=("check:1", "check:2")), RewardConfig(), RUNTIME),
        "network": (replace(BASE, network=True), RewardConfig(), RUNTIME),
        "cpu": (replace(BASE, limits=Limits(cpu_s=5.0)), RewardConfig(), RUNTIME),
        "wall": (replace(BASE, limits=Limits(wall_s=30.0)), RewardConfig(), RUNTIME),
        "memory": (replace(BASE, limits=Limits(memory_mb=256)), RewardConfig(), RUNTIME),
        "processes": (replace(BASE, limits=Limits(processes=8)), RewardConfig(), RUNTIME),
        "output": (replace(BASE, limits=Limits(output_bytes=1024)), RewardConfig(), RUNTIME),
        "shape": (BASE, RewardConfig(shape="fraction"), RUNTIME),
        "bonus_shape": (BASE, RewardConfig(shape="bonus"), RUNTIME),
        "bonus_value": (BASE, RewardConfig(shape="bonus", bonus=0.2), RUNTIME),
        "pytest": (BASE, RewardConfig(), runtime_fingerprint({"backend": "local", "python": "3.11.2", "pytest": "8.3.1", "isolated": True})),
        "python": (BASE, RewardConfig(), runtime_fingerprint({"backend": "local", "python": "3.12.0", "pytest": "8.3.0", "isolated": True})),
        "isolation": (BASE, RewardConfig(), runtime_fingerprint({"backend": "local", "python": "3.11.2", "pytest": "8.3.0", "isolated": False})),
        "backend": (BASE, RewardConfig(), runtime_fingerprint({"backend": "gvisor", "python": "3.11.2", "pytest": "8.3.0", "isolated": True})),
        "image": (BASE, RewardConfig(), runtime_fingerprint({"backend": "local", "python": "3.11.2", "pytest": "8.3.0", "isolated": True, "image": "x"})),
    }
    keys = {name: cache_key(*args) for name, args in variants.items()}
    assert len(set(keys.values())) == len(keys), keys
    # ...and the derivation is deterministic: equal inputs built separately, equal keys.
    assert cache_key(replace(BASE), RewardConfig(), dict(RUNTIME)) == keys["base"]
    assert cache_key(BASE, RewardConfig(), RUNTIME) == keys["base"]


def test_grader_version_and_source_are_part_of_the_runtime(monkeypatch):
    fp = {"backend": "local"}
    before = runtime_fingerprint(fp)
    monkeypatch.setattr(cache_mod, "__version__", "99.0")
    after = runtime_fingerprint(fp)
    assert before["grader"] != after["grader"]
    assert cache_key(BASE, RewardConfig(), before) != cache_key(BASE, RewardConfig(), after)
    assert before["code"] == cache_mod.code_hash() and len(before["code"]) == 16
    assert before["schema"] == cache_mod.SCHEMA_VERSION


def test_the_code_hash_covers_the_harness_python_and_c(tmp_path, monkeypatch):
    """The rules live mostly in rlvr_harness (strict comparisons, the guard, the array
    interface's check, in Python and C): a change there must not reuse cached results. The
    hash read rlvr_grade's .py files only, so results graded before a new defence were served
    after it."""
    for pkg in ("rlvr_grade", "rlvr_harness"):
        shutil.copytree(Path(cache_mod.__file__).parents[1] / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    monkeypatch.setattr(cache_mod, "__file__", str(tmp_path / "rlvr_grade" / "cache.py"))
    seen = []
    for path in ("rlvr_harness/strict.py", "rlvr_harness/_arrays.c", "rlvr_grade/api.py"):
        cache_mod.code_hash.cache_clear()
        seen.append(cache_mod.code_hash())
        with open(tmp_path / path, "a") as fh:
            fh.write("\n")
    cache_mod.code_hash.cache_clear()
    seen.append(cache_mod.code_hash())
    monkeypatch.undo()
    cache_mod.code_hash.cache_clear()
    assert len(set(seen)) == 4, seen


def test_row_position_other_columns_and_key_order_do_not_change_the_key():
    g = Grader(ScoreOptions())
    row = {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}
    k = g.cache_key(Rollout(index=0, row=row))
    assert k is not None
    assert g.cache_key(Rollout(index=977, row=dict(row), line=978)) == k
    assert g.cache_key(Rollout(index=3, row={**row, "id": "abc", "meta": {"step": 7}, "reward": 0.5})) == k
    assert g.cache_key(Rollout(index=0, row=dict(reversed(list(row.items()))))) == k
    # the code *after* extraction is what counts: the same code in a markdown fence, same key
    fenced = {**row, "completion": "Here you go:\n```python\ndef f():\n    return 1\n```\n"}
    assert g.cache_key(Rollout(index=0, row=fenced)) == k
    # a row that cannot be graded has no key
    assert g.cache_key(Rollout(index=0, row={"completion": None, "tests": "assert 1"})) is None
    # options that shape the check change it
    assert Grader(ScoreOptions(reward=RewardConfig(shape="fraction"))).cache_key(Rollout(0, row)) != k
    assert Grader(ScoreOptions(checks=replace(ScoreOptions().checks, limits=Limits(cpu_s=3.0)))).cache_key(Rollout(0, row)) != k


# -- the store --------------------------------------------------------------------------------

OUT = Outcome(status="fail", reward=0.1, tests_passed=1, tests_total=3, duration_ms=12.345678901234, error="assert 2 == 1", flags=("exit_call", "x"))


def test_store_round_trips_the_outcome_columns_exactly(tmp_path):
    path = tmp_path / "c.sqlite"
    with Cache(str(path), runtime=RUNTIME) as c:
        assert c.get("k") is None
        assert c.put("k", OUT)
    with Cache(str(path)) as c:  # a new process would see the same
        got = c.get("k")
    assert got == replace(OUT, cached=True)
    assert got.duration_ms == OUT.duration_ms  # bit for bit: served rows keep their duration
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = [r[1] for r in db.execute(f"PRAGMA table_info({cache_mod.OUTCOMES})")]
    assert "stdout" not in cols and "stderr" not in cols  # outcome columns, not raw output
    assert os.stat(path).st_mode & 0o077 == 0


@pytest.mark.parametrize("status", ["sandbox_error", "invalid_input"])
def test_non_verdicts_are_never_stored(tmp_path, status):
    with Cache(str(tmp_path / "c.sqlite")) as c:
        assert c.put("k", replace(OUT, status=status, reward=None)) is False
        assert c.get("k") is None and len(c) == 0


def test_a_file_that_is_not_a_cache_is_a_clear_error(tmp_path):
    bad = tmp_path / "c.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(CacheError, match="not a usable cache"):
        Cache(str(bad))
    src = write_jsonl(tmp_path / "in.jsonl", [{"completion": "x = 1", "tests": "assert x == 1"}])
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "--cache", str(bad), "-q"])
    assert res.exit_code == 2
    assert "Error:" in res.output and "not a usable cache" in res.output and "--no-cache" in res.output
    assert not (tmp_path / "o.jsonl").exists()


def test_another_schema_is_never_served_and_stats_and_clear_see_it(tmp_path):
    path = tmp_path / "c.sqlite"
    with Cache(str(path), runtime=RUNTIME) as c:
        c.put("k1", OUT)
        c.put("k2", replace(OUT, status="pass", reward=1.0))
    db = sqlite3.connect(path)
    # an entry laid down by an (imaginary) older schema, under a key this grader would use
    db.execute("CREATE TABLE outcomes_v0 (key TEXT PRIMARY KEY, status TEXT, reward REAL)")
    db.execute("INSERT INTO outcomes_v0 VALUES ('k3', 'pass', 1.0)")
    db.commit()
    db.close()
    with Cache(str(path)) as c:
        assert c.get("k3") is None
    res = runner.invoke(app, ["cache", "stats", "--cache", str(path), "--json"])
    assert res.exit_code == 0, res.output
    st = json.loads(res.stdout)
    assert st["entries"] == 3 and st["schemas"] == {"0": 1, "1": 2}
    assert st["graders"] == {cache_mod.__version__: 2}
    assert st["statuses"] == {"fail": 1, "pass": 1}
    assert st["runtimes"][0]["fingerprint"]["backend"]["pytest"] == "8.3.0"
    assert st["bytes"] > 0
    res = runner.invoke(app, ["cache", "stats", "--cache", str(path)])
    assert res.exit_code == 0 and "entries" in res.output and "this grader" in res.output

    # clear by age: only entries older than the cut
    db = sqlite3.connect(path)
    db.execute(f"UPDATE {cache_mod.OUTCOMES} SET created = created - 10 * 86400 WHERE key = 'k1'")
    db.commit()
    db.close()
    res = runner.invoke(app, ["cache", "clear", "--cache", str(path), "--older-than", "7d"])
    assert res.exit_code == 0 and "deleted 1 entries" in res.output
    with Cache(str(path)) as c:
        assert c.get("k1") is None and c.get("k2") is not None
    assert runner.invoke(app, ["cache", "clear", "--cache", str(path), "--grader-version", "0.0.1"]).exit_code == 0
    with Cache(str(path)) as c:
        assert c.get("k2") is not None
    res = runner.invoke(app, ["cache", "clear", "--cache", str(path), "--grader-version", cache_mod.__version__])
    assert "deleted 1 entries" in res.output
    # no filter: everything, every schema
    res = runner.invoke(app, ["cache", "clear", "--cache", str(path)])
    assert res.exit_code == 0 and "deleted 1 entries" in res.output
    assert cache_mod.stats(str(path)).entries == 0 and cache_mod.stats(str(path)).schemas == {1: 0}
    assert runner.invoke(app, ["cache", "clear", "--cache", str(path), "--older-than", "soon"]).exit_code == 2


_WRITER = """
import sys, threading
from rlvr_grade.cache import Cache
from rlvr_grade.types import Outcome

def outcome(i):
    return Outcome(status="fail", reward=i / 7, tests_passed=i % 5, tests_total=5, duration_ms=i * 1.5,
                   error="e" * (i % 300), flags=("x",) * (i % 3))

c = Cache(sys.argv[1])
base = int(sys.argv[2])
def write(t):
    i = base + t
    while True:
        c.put(f"{i:09d}", outcome(i))
        i += 4
for t in range(4):
    threading.Thread(target=write, args=(t,), daemon=True).start()
print("ready", flush=True)
threading.Event().wait()
"""


def test_sigkill_leaves_each_result_whole_or_absent(tmp_path):
    """Four threads writing as fast as they can, SIGKILLed at five different instants: the file
    is always consistent and every stored row is complete and exactly what was written."""
    path = tmp_path / "c.sqlite"
    script = tmp_path / "writer.py"
    script.write_text(_WRITER)
    sys.path.insert(0, str(tmp_path))
    counts = []
    for round_, delay in enumerate((0.05, 0.13, 0.21, 0.34, 0.55)):
        proc = subprocess.Popen([sys.executable, str(script), str(path), str(round_ * 10**7)], stdout=subprocess.PIPE, cwd=ROOT)
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        counts.append(db.execute(f"SELECT count(*) FROM {cache_mod.OUTCOMES}").fetchone()[0])
        db.close()
    assert counts == sorted(counts) and counts[0] > 0 and len(set(counts)) == len(counts)
    with Cache(str(path)) as c:
        db = sqlite3.connect(path)
        for (key,) in db.execute(f"SELECT key FROM {cache_mod.OUTCOMES}"):
            i = int(key)
            want = Outcome(status="fail", reward=i / 7, tests_passed=i % 5, tests_total=5, duration_ms=i * 1.5,
                           error="e" * (i % 300), flags=("x",) * (i % 3), cached=True)
            assert c.get(key) == want


def test_concurrent_threads_share_one_cache(tmp_path):
    with Cache(str(tmp_path / "c.sqlite")) as c:
        def work(t: int) -> None:
            for i in range(300):
                k = f"{t}-{i}"
                c.put(k, replace(OUT, tests_passed=i))
                assert c.get(k).tests_passed == i

        threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(c) == 2400


# -- through the real CLI and the real sandbox --------------------------------------------------

N_DISTINCT = 36


def _resume_rows() -> list[dict]:
    """36 distinct rollouts (every fourth fails), each ~50 ms of sleep, plus 9 duplicates
    (other id, same completion and tests) placed after their originals."""
    rows, distinct = [], []
    for i in range(N_DISTINCT):
        want = i if i % 4 else -1
        distinct.append({"completion": f"import time\ntime.sleep(0.05)\ndef f():\n    return {i}\n", "tests": f"assert f() == {want}"})
        rows.append({"id": f"r{i}", **distinct[i]})
        if i % 4 == 2:
            rows.append({"id": f"dup{i}", **distinct[i // 2]})
    return rows


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "rlvr_grade", "score", *args, "-q", "-j", "2"]


def _strip(data: bytes, duration: bool = True) -> list[bytes]:
    """The output lines without `cached` (how a row was obtained) and, unless asked to keep
    it, `duration_ms` (a fresh measurement for every row executed in this run)."""
    lines = []
    for line in data.splitlines():
        line = re.sub(rb',"cached":(true|false)', b"", line)
        if duration:
            line = re.sub(rb'"duration_ms":[-0-9.eE+]+,', b"", line)
        lines.append(line)
    return lines


def _db(path: Path) -> dict[str, float]:
    """key -> duration_ms of what the cache holds (read-only, as another process)."""
    if not path.exists():
        return {}
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
        try:
            return dict(db.execute(f"SELECT key, duration_ms FROM {cache_mod.OUTCOMES}"))
        finally:
            db.close()
    except sqlite3.Error:
        return {}


def _keys(rows: list[dict]) -> list[str]:
    g = Grader(ScoreOptions())  # the CLI's defaults
    return [g.cache_key(Rollout(index=i, row=r)) for i, r in enumerate(rows)]


def _kill_when(proc: subprocess.Popen, ready, timeout: float = 120.0, reap: bool = True) -> None:
    """SIGKILL `proc` once `ready()`; `reap=False` leaves its slot cgroups for the next run's sweep."""
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, "the run finished before the kill point"
        assert time.monotonic() < deadline, "kill point never reached"
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    if reap:
        _reap_slot_cgroups(proc.pid)


def _reap_slot_cgroups(pid: int) -> None:
    """A SIGKILLed grader cannot remove its slots' cgroups; do it for the runs we killed."""
    import glob

    from rlvr_grade.sandbox.cgroups import ROOT as CGROOT
    from rlvr_grade.sandbox.cgroups import SlotCgroup, cgroup_version

    if cgroup_version() is None:
        return
    pattern = re.compile(rf"^{pid}-(\d+-)?slot\d+(-py)?$")  # "<pid>-slot<i>" or "<pid>-<n>-slot<i>[-py]"
    dirs = glob.glob(os.path.join(CGROOT, "rlvr-grade", "*")) + glob.glob(os.path.join(CGROOT, "*", "rlvr-grade", "*"))
    for name in sorted({os.path.basename(d) for d in dirs if pattern.match(os.path.basename(d))}):
        cg = SlotCgroup(name)
        for _ in range(50):
            cg.kill_all()
            cg.remove()
            if not any(os.path.exists(d) for d in cg.dirs):
                break
            time.sleep(0.02)


@pytest.fixture(scope="module")
def resume_data(tmp_path_factory):
    """The input and an uninterrupted run's output (its own, fresh cache)."""
    d = tmp_path_factory.mktemp("resume")
    rows = _resume_rows()
    src = write_jsonl(d / "in.jsonl", rows)
    ref = d / "ref.jsonl"
    proc = subprocess.run(_cli(str(src), "-o", str(ref), "--cache", str(d / "ref-cache.sqlite")), cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return src, rows, ref.read_bytes()


@pytest.mark.slow
@requires_root
def test_resume_after_sigkills_during_grading(tmp_path, resume_data):
    """Killed right after the first result, the rerun killed again half way, then a rerun to
    the end: the output is the uninterrupted run's, and nothing recorded was run twice."""
    src, rows, ref = resume_data
    cache, out, summary = tmp_path / "cache.sqlite", tmp_path / "out.jsonl", tmp_path / "s.json"
    cmd = _cli(str(src), "-o", str(out), "--cache", str(cache), "--summary-json", str(summary))
    seen: dict[str, float] = {}
    for kill_after in (1, N_DISTINCT // 2):
        _kill_when(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
                   lambda n=kill_after: len(_db(cache)) >= n)
        assert not out.exists() and not summary.exists()
        now = _db(cache)
        assert kill_after <= len(now) < N_DISTINCT
        assert seen.items() <= now.items()  # what was recorded stays, unchanged
        seen = now
    before = seen

    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = out.read_bytes()
    # Row for row the uninterrupted run's output, except `cached` and fresh durations.
    assert _strip(got) == _strip(ref)
    keys = _keys(rows)
    assert len(set(keys)) == N_DISTINCT
    s = json.loads(summary.read_text())
    # only what the killed runs had not recorded was executed; the rest was served
    assert s["executed"] == len(set(keys) - set(before))
    assert s["cached"] == len(rows) - s["executed"]
    out_rows = read_jsonl(out)
    first_duration: dict[str, float] = {}
    for i, (row, key) in enumerate(zip(out_rows, keys, strict=True)):
        assert row["cached"] == (key in before or key in keys[:i]), (i, row)
        if key in before:
            assert row["duration_ms"] == before[key]  # served with the duration measured then
        first_duration.setdefault(key, row["duration_ms"])
        assert row["duration_ms"] == first_duration[key]

    # A second run of the finished command executes nothing and writes the same bytes
    # (durations included); only `cached` differs, and it is true everywhere.
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    again = out.read_bytes()
    assert _strip(again, duration=False) == _strip(got, duration=False)
    assert all(r["cached"] for r in read_jsonl(out))
    s = json.loads(summary.read_text())
    assert (s["executed"], s["cached"]) == (0, len(rows))


def _as_a_terminal_starts_it() -> None:
    """SIGINT handled and no signal blocked, as a shell starts a command: a disposition or mask
    left in this pytest process by something earlier in the session is inherited through exec
    (the full suite ran the grader with Ctrl-C not delivered: it finished and exited 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


@pytest.mark.slow
@requires_root
def test_ctrl_c_stores_no_casualties_and_the_rerun_resumes(tmp_path, resume_data):
    """Ctrl-C in a terminal signals the whole process group (grader and sandbox workers): the
    checks it interrupts must not be cached as the candidate's failures."""
    src, rows, ref = resume_data
    cache, out, summary = tmp_path / "cache.sqlite", tmp_path / "out.jsonl", tmp_path / "s.json"
    cmd = _cli(str(src), "-o", str(out), "--cache", str(cache), "--summary-json", str(summary))
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_as_a_terminal_starts_it)
    deadline = time.monotonic() + 120
    while len(_db(cache)) < N_DISTINCT // 3:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.002)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert not out.exists()
    before = _db(cache)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert _strip(out.read_bytes()) == _strip(ref)  # a cached casualty would show up here
    keys = _keys(rows)
    assert json.loads(summary.read_text())["executed"] == len(set(keys) - set(before))


@pytest.mark.slow
@requires_root
def test_resume_after_sigkill_during_the_final_write(tmp_path):
    """Parquet output is assembled at the end; with ~40 MB of rows that takes a while. Kill
    once every result is in the cache but the output is not in place yet."""
    rows = [
        {"id": i, "pad": os.urandom(1 << 20).hex(), "completion": f"def f():\n    return {i}\n", "tests": f"assert f() == {i if i % 3 else 0}"}
        for i in range(20)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    ref = tmp_path / "ref.parquet"
    proc = subprocess.run(_cli(str(src), "-o", str(ref), "--cache", str(tmp_path / "ref.sqlite")), cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr

    cache, out, summary = tmp_path / "cache.sqlite", tmp_path / "out.parquet", tmp_path / "s.json"
    cmd = _cli(str(src), "-o", str(out), "--cache", str(cache), "--summary-json", str(summary))
    _kill_when(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
               lambda: len(_db(cache)) == len(rows))
    assert not out.exists(), "killed too late: the output was already in place"
    assert list(tmp_path.glob(".out.parquet.*.part"))  # the write was under way
    before = _db(cache)

    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    s = json.loads(summary.read_text())
    assert (s["executed"], s["cached"]) == (0, len(rows))
    got, want = pq.read_table(out), pq.read_table(ref)
    assert got.schema == want.schema
    assert got.drop(["cached", "duration_ms"]).equals(want.drop(["cached", "duration_ms"]))
    assert got.column("cached").to_pylist() == [True] * len(rows)
    keys = _keys(rows)
    assert got.column("duration_ms").to_pylist() == [before[k] for k in keys]


@pytest.mark.slow
@requires_root
def test_ten_thousand_rows_of_a_hundred_distinct_execute_a_hundred_checks(tmp_path):
    rows = [
        {"n": n, "completion": f"def f():\n    return {n % 100}\n", "tests": f"assert f() == {n % 100 if n % 100 % 7 else -1}"}
        for n in range(10_000)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out, summary = tmp_path / "out.jsonl", tmp_path / "s.json"
    proc = subprocess.run(_cli(str(src), "-o", str(out), "--cache", str(tmp_path / "c.sqlite"), "--summary-json", str(summary)),
                          cwd=ROOT, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    s = json.loads(summary.read_text())
    assert (s["rows"], s["executed"], s["cached"]) == (10_000, 100, 9_900)
    got = read_jsonl(out)
    assert [r["n"] for r in got] == list(range(10_000))
    assert [r["cached"] for r in got] == [n >= 100 for n in range(10_000)]
    assert all(r["status"] == ("fail" if r["n"] % 100 % 7 == 0 else "pass") for r in got)


@requires_root
def test_no_cache_writes_no_file_but_still_grades_duplicates_once(tmp_path, monkeypatch):
    default = tmp_path / "default" / "cache.sqlite"
    monkeypatch.setenv("RLVR_GRADE_CACHE", str(default))
    rows = [{"completion": f"x = {i % 2}", "tests": "assert x == 1"} for i in range(12)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    summary = tmp_path / "s.json"
    for _ in range(2):
        res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "--no-cache", "-q", "--summary-json", str(summary)])
        assert res.exit_code == 0, res.output
        s = json.loads(summary.read_text())
        assert (s["executed"], s["cached"]) == (2, 10)  # nothing carried over from the first run
    assert not default.exists() and not default.parent.exists()
    # without --no-cache the default location is used, and a rerun executes nothing
    for executed in (2, 0):
        res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", "--summary-json", str(summary)])
        assert res.exit_code == 0, res.output
        assert json.loads(summary.read_text())["executed"] == executed
    assert default.exists()


@requires_root
def test_duplicates_in_flight_wait_for_the_first(tmp_path):
    """Identical rows arriving while the first is still running are not run again (the cache
    has nothing yet: only the in-flight dedupe can catch them)."""
    row = {"completion": "import time\ntime.sleep(0.4)\nx = 1", "tests": "assert x == 1"}
    with Grader(ScoreOptions(concurrency=2, cache=str(tmp_path / "c.sqlite"))) as g:
        outcomes = g.grade([row] * 6 + [{**row, "tests": "assert x == 2"}])
        assert [o.cached for o in outcomes] == [False, True, True, True, True, True, False]
        assert [o.status for o in outcomes] == ["pass"] * 6 + ["fail"]
        assert len({o.duration_ms for o in outcomes[:6]}) == 1
        assert len(g.cache) == 2


@requires_root
def test_sandbox_error_is_not_cached_and_a_waiting_duplicate_runs_again(tmp_path):
    """A real infrastructure failure: the slot's worker is SIGKILLed mid-check."""
    path = tmp_path / "c.sqlite"
    row = {"completion": "import time\ntime.sleep(2)\nx = 1", "tests": "assert x == 1"}
    opts = ScoreOptions(concurrency=1, retries=1, cache=str(path))
    with Grader(opts) as g:
        zygote = g.backend._slots[0].proc.pid
        killer = threading.Timer(0.8, os.kill, (zygote, signal.SIGKILL))
        killer.start()
        outcomes = g.grade([row, row])
        killer.join()
    assert [o.status for o in outcomes] == ["sandbox_error", "pass"]
    assert [o.cached for o in outcomes] == [False, False]
    assert outcomes[0].reward is None
    with Grader(opts) as g:
        again = g.grade([row])
    assert again[0].status == "pass" and again[0].cached  # the pass was stored, the error was not
    assert cache_mod.stats(str(path)).statuses == {"pass": 1}


@requires_root
def test_the_sandbox_cannot_see_the_cache(tmp_path):
    # Outside /tmp (checks get a fresh /tmp anyway) and world-readable: only the allowlisted root
    # (which lists no such folder) keeps it out.
    d = tempfile.mkdtemp(prefix="rlvr-cache-test-", dir="/var/tmp")
    try:
        os.chmod(d, 0o755)
        path = os.path.join(d, "cache.sqlite")
        Cache(path).close()
        os.chmod(path, 0o644)
        row = {"completion": "import os", "tests": f"assert not os.path.exists({path!r})\nassert not os.path.exists({d!r})\n"}
        with Grader(ScoreOptions(cache=path)) as g:
            [outcome] = g.grade([row])
        assert outcome.status == "pass", outcome.error
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_a_layout_changed_without_a_schema_bump_is_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE {cache_mod.OUTCOMES} (key TEXT PRIMARY KEY, status TEXT, reward REAL)")
    db.close()
    with pytest.raises(CacheError, match="unknown layout"):
        Cache(str(path))


@requires_root
def test_a_full_disk_is_a_clear_cache_error_and_what_was_committed_stays(tmp_path):
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], check=True)
    try:
        path = mnt / "c.sqlite"
        stored = 0
        with Cache(str(path)) as c:
            with pytest.raises(CacheError, match=r"cannot write the cache .*c\.sqlite.*full"):
                for i in range(100_000):
                    c.put(f"{i:064d}", replace(OUT, error="x" * 500))
                    stored += 1
        assert stored > 10
        with Cache(str(path)) as c:
            assert c.get(f"{0:064d}") is not None and c.get(f"{stored - 1:064d}") is not None
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


@requires_root
def test_results_of_another_grader_version_are_not_served(tmp_path, monkeypatch):
    path = str(tmp_path / "c.sqlite")
    row = {"completion": "x = 1", "tests": "assert x == 1"}
    ours = cache_mod.__version__
    with Grader(ScoreOptions(cache=path, concurrency=1)) as g:
        assert [o.cached for o in g.grade([row, row])] == [False, True]
    with Grader(ScoreOptions(cache=path, concurrency=1)) as g:
        assert g.grade([row])[0].cached
    monkeypatch.setattr(cache_mod, "__version__", "99.0")
    with Grader(ScoreOptions(cache=path, concurrency=1)) as g:
        [o] = g.grade([row])
    assert (o.status, o.cached) == ("pass", False)
    assert cache_mod.stats(path).graders == {ours: 1, "99.0": 1}


def test_help_documents_the_default_location_and_stats_of_a_missing_cache(tmp_path):
    res = runner.invoke(app, ["score", "--help"])
    assert "--no-cache" in res.output and "XDG_CACHE_HOME" in res.output
    res = runner.invoke(app, ["cache", "stats", "--cache", str(tmp_path / "none.sqlite")])
    assert res.exit_code == 0 and "no cache at" in res.output
    assert not (tmp_path / "none.sqlite").exists()
