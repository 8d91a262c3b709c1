"""No row breaks a run: each kind of row that used to end one (exit 1, no output, a resume
crashing on the same row) gets its verdict while the rows around it are graded normally; a bug
of the grader on one row is that row's sandbox_error, counted in the summary."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rlvr_grade.checks.flags import scan
from rlvr_grade.cli import app
from tests.conftest import read_jsonl, write_jsonl

runner = CliRunner()
OK = {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1\n"}
CALL_TESTS = json.dumps([{"args": [1], "output": 2}])


def score(*args: str):
    return runner.invoke(app, ["score", *args, "--quiet"])


def surrounded(row: dict) -> list[dict]:
    return [OK, row, OK]


def long_sum(n: int) -> str:
    return " + ".join(str(i) for i in range(n))


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_lone_surrogate_in_an_exception_message_is_a_runtime_error(tmp_path, suffix):
    # Before: UnicodeEncodeError from SQLite (then orjson), exit 1, no output, and the resume
    # crashed on the same row.
    src = write_jsonl(tmp_path / "in.jsonl", surrounded({"completion": "def f():\n    raise ValueError('\\ud800')\n", "tests": "assert f() == 1\n"}))
    out = tmp_path / f"out{suffix}"
    for _ in range(2):  # graded, then served from the cache
        res = score(str(src), "-o", str(out))
        assert res.exit_code == 0, res.output
        rows = read_jsonl(out) if suffix == ".jsonl" else pq.read_table(out).to_pylist()
        assert [(r["status"], r["error"]) for r in rows] == [("pass", ""), ("runtime_error", "ValueError: \ufffd"), ("pass", "")]


def test_a_600_term_expression_is_graded_and_still_scanned(tmp_path):
    # Before: RecursionError in the flags scan (honest code: a lookup table written out).
    program = f"import os\nT = {long_sum(600)}\ndef f():\n    return 1\nif T < 0:\n    os._exit(0)\n"
    src = write_jsonl(tmp_path / "in.jsonl", surrounded({"completion": program, "tests": "assert f() == 1\n"}))
    res = score(str(src), "-o", str(tmp_path / "out.jsonl"))
    assert res.exit_code == 0, res.output
    rows = read_jsonl(tmp_path / "out.jsonl")
    assert [r["status"] for r in rows] == ["pass"] * 3
    assert rows[1]["flags"] == ["exit_early"]  # the whole tree was walked


def test_a_call_candidate_forging_its_result_descriptor_is_judged_wrong(tmp_path):
    # Before: the grader's decoder raised on the invalid tag, outside any handler: exit 1.
    forged = [
        b'{"value": {"$float": "abc"}}', b'{"value": {"$tuple": 5}}', b'{"value": {"$set": [{"$set": []}]}}',
        b'{"value": {"$bytes": "zz"}}', b'{"value": {"$dict": [[1]]}}', b"[1, 2]", b"\xff\xfe",
    ]
    rows = [OK]
    for blob in forged:
        program = f"import os\ndef f(x):\n    os.write(3, {blob!r})\n    os._exit(0)\n"
        rows.append({"completion": program, "tests": CALL_TESTS, "fn_name": "f"})
    rows.append({"completion": "def f(x):\n    return x + 1\n", "tests": CALL_TESTS, "fn_name": "f"})
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    res = score(str(src), "-o", str(tmp_path / "out.jsonl"))
    assert res.exit_code == 0, res.output
    got = read_jsonl(tmp_path / "out.jsonl")
    assert got[0]["status"] == "pass" and got[-1]["status"] == "pass"
    for r in got[1:-1]:
        assert (r["reward"], r["status"]) in ((0.0, "fail"), (0.0, "runtime_error")), r


@pytest.mark.parametrize("row,why", [
    ({"completion": "x = 1", "tests": f"assert {long_sum(3000)} > 0\n"}, "nested too deeply"),
    ({"completion": "x = 1", "tests": "[" * 5000 + "]" * 5000}, None),
    ({"completion": "def f(x): return x", "tests": CALL_TESTS, "fn_name": 5}, "fn_name"),
    ({"completion": "def f(x): return x", "tests": CALL_TESTS, "fn_name": "f", "compare": 3}, "compare"),
    ({"completion": "print(1)", "tests": json.dumps([{"input": "", "output": "1"}]), "language": ["c"]}, "language"),
    ({"completion": "def f(x): return x", "tests": json.dumps([{"args": [1], "output": {"$float": "x"}}]), "fn_name": "f"},
     "expected output 0"),
    ({"completion": "def f(x): return x", "tests": json.dumps({"inputs": [[1]], "outputs": [1], "fn_name": 7})}, "fn_name"),
])
def test_rows_the_grader_cannot_read_are_invalid_input_naming_the_field(tmp_path, row, why):
    src = write_jsonl(tmp_path / "in.jsonl", surrounded(row))
    res = score(str(src), "-o", str(tmp_path / "out.jsonl"))
    assert res.exit_code == 0, res.output
    got = read_jsonl(tmp_path / "out.jsonl")
    assert [r["status"] for r in got] == ["pass", "invalid_input", "pass"], got[1]
    assert "line 2" in got[1]["error"]
    if why:
        assert why in got[1]["error"]


def test_the_scan_is_bounded_and_says_when_it_gave_up(monkeypatch):
    from rlvr_grade.checks import flags

    assert scan(f"T = {long_sum(600)}\n") == ()  # walked whole: 600 levels, no recursion
    assert scan(f"import ctypes\nT = {long_sum(5000)}\n") == ("ctypes", "scan_incomplete")  # deeper than the parser
    assert "scan_incomplete" in scan("import ctypes\n" + "x = 1\n" * (flags.MAX_SCAN_CHARS // 6 + 1))
    monkeypatch.setattr(flags, "MAX_SCAN_NODES", 50)
    assert scan("import os\n" + "x = [1, 2, 3]\n" * 100 + "os._exit(0)\n") == ("exit_early", "scan_incomplete")
    monkeypatch.setattr(flags, "MAX_SCAN_NODES", 10**9)
    monkeypatch.setattr(flags, "MAX_SCAN_CPU_S", 0.0)
    assert "scan_incomplete" in scan("x = [1]\n" * 3000)


def test_scan_incomplete_counts_as_suspicious_under_on_suspicious_zero(tmp_path):
    program = f"def f():\n    return 1\nT = {long_sum(3000)}\n"  # also more than the sandbox compiles
    src = write_jsonl(tmp_path / "in.jsonl", [{"completion": program, "tests": "assert f() == 1\n"}])
    res = score(str(src), "-o", str(tmp_path / "out.jsonl"), "--on-suspicious", "zero")
    assert res.exit_code == 0, res.output
    (row,) = read_jsonl(tmp_path / "out.jsonl")
    assert "scan_incomplete" in row["flags"] and row["reward"] == 0.0


# -- bugs of the grader on one row ------------------------------------------------------------
@pytest.mark.parametrize("where", ["build", "score", "cache", "backend"])
def test_a_grader_bug_on_one_row_is_its_sandbox_error_and_is_counted(tmp_path, monkeypatch, where):
    import rlvr_grade.api as api
    from rlvr_grade.cache import Cache
    from rlvr_grade.checks import styles
    from rlvr_grade.sandbox.local import LocalBackend

    def buggy_arg(a) -> bool:  # the middle row: its check, its rollout, its outcome (2 tests)
        return "BUGGY" in str(getattr(a, "program", "")) + str(getattr(a, "row", "")) or getattr(a, "tests_total", 0) == 2

    def bug(original):
        def wrapped(*args, **kwargs):
            if any(buggy_arg(a) for a in args):
                raise KeyError("boom")
            return original(*args, **kwargs)
        return wrapped

    targets = {"build": (api, "build_check"), "score": (styles, "score"), "cache": (Cache, "put"),
               "backend": (LocalBackend, "run")}
    owner, name = targets[where]
    monkeypatch.setattr(owner, name, bug(getattr(owner, name)))
    buggy = {"completion": "def f():\n    return 1\n# BUGGY\n", "tests": "assert f() == 1\nassert f()\n"}
    src = write_jsonl(tmp_path / "in.jsonl", surrounded(buggy))
    summary = tmp_path / "s.json"
    res = score(str(src), "-o", str(tmp_path / "out.jsonl"), "--summary-json", str(summary))
    assert res.exit_code == 0, res.output
    got = read_jsonl(tmp_path / "out.jsonl")
    assert [(r["status"], r["reward"]) for r in got] == [("pass", 1.0), ("sandbox_error", None), ("pass", 1.0)]
    assert got[1]["error"] == "grader error: KeyError: 'boom'"
    data = json.loads(summary.read_text())
    assert data["grader_errors"] == 1 and data["statuses"]["sandbox_error"] == 1
    # `summary` of the written file counts it the same way
    res = runner.invoke(app, ["summary", str(tmp_path / "out.jsonl"), "--json"])
    assert json.loads(res.stdout)["grader_errors"] == 1


def test_the_python_api_never_raises_for_a_row(sandbox_grader):
    from rlvr_grade.api import Grader

    assert isinstance(sandbox_grader, Grader)
    rows = [OK, "not a dict", {"completion": "x='\ud800'", "tests": "assert x\n"}, {"completion": 5, "tests": None},
            {"completion": "x = 1", "tests": "assert x == 1\n", "language": object()}, OK]
    outcomes = sandbox_grader.grade(rows)
    assert [o.status for o in outcomes] == ["pass", "invalid_input", "invalid_input", "invalid_input", "pass", "pass"]
    assert "lone surrogate" in outcomes[2].error


@pytest.fixture(scope="module")
def sandbox_grader():
    from rlvr_grade.api import Grader

    with Grader(concurrency=2) as grader:
        yield grader
