"""Fuzzing the whole run through the real local sandbox: for every test style, candidates that
write arbitrary bytes to every descriptor they can reach (stdout, stderr, the call style's
result descriptor, every other open descriptor, lines shaped like result records under a
guessed nonce), then return, exit with any code, raise any text or die of any signal; and
arbitrary values in every input column (completion, tests, id, group, language, fn_name,
compare, extra columns). The run always completes with exactly one verdict per row, the output
parses (JSONL and Parquet), and so do the JUnit XML and the summary.

Lines under the harness's real nonce cannot be written from here (the candidate never learns
it); tests/scoring/test_boundary.py feeds those to the channel parser and the grader directly.

Bounded for `make test`: a fixed number of examples, derandomized (the same ones every run,
in CI too), one warm sandbox pool for the module."""

from __future__ import annotations

import json
import os
import signal
import xml.etree.ElementTree as ET
from collections import Counter

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr_grade.api import Grader, ScoreOptions, score_file
from rlvr_grade.boundary import safe_text
from rlvr_grade.checks import CheckOptions
from rlvr_grade.io.writers import as_json_text
from rlvr_grade.reports import RunReport
from rlvr_grade.types import STATUSES, Limits
from tests.conftest import requires_root

pytestmark = requires_root

FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=15,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])

ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=40)
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3), max_leaves=8)
SIGNALS = [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM, signal.SIGABRT, signal.SIGXCPU, signal.SIGUSR1, signal.SIGPIPE, signal.SIGXFSZ]

# What a candidate writes where. "spray" is every descriptor from 3 to 63; "record" a line shaped
# like a result record under a nonce the candidate can only guess.
BLOBS = st.binary(max_size=300) | st.sampled_from([b"\xff\xfe\x00", b"\n" * 50, b"PASSED\n1 passed\n"]) \
    | st.integers(100_000, 1_500_000).map(lambda n: b"x" * n)
RECORD = st.tuples(st.text("0123456789abcdef", min_size=32, max_size=32), JSON_VALUES).map(
    lambda t: b"\n" + t[0].encode() + b" " + json.dumps(t[1]).encode() + b"\n")
WRITES = st.lists(st.tuples(st.sampled_from([1, 2, 3, 4, 5, 63, "spray"]), BLOBS | RECORD), max_size=3)
ENDINGS = st.one_of(
    st.just(("return", None)), st.just(("wrong", None)),
    st.tuples(st.just("exit"), st.integers(0, 255)), st.tuples(st.just("sysexit"), st.integers(-5, 300) | ANY_TEXT),
    st.tuples(st.just("raise"), ANY_TEXT), st.tuples(st.just("signal"), st.sampled_from(SIGNALS)),
    st.tuples(st.just("print"), ANY_TEXT),
)


def candidate(style: str, writes: list, ending: tuple, at_import: bool, fenced: bool) -> str:
    lines = []
    for fd, data in writes:
        if fd == "spray":
            lines.append(f"for _fd in range(3, 64):\n    try:\n        os.write(_fd, {data!r})\n    except OSError:\n        pass")
        else:
            lines.append(f"try:\n    os.write({fd}, {data!r})\nexcept OSError:\n    pass")
    kind, arg = ending
    answer = "x + 1" if kind != "wrong" else "x - 1"
    lines.append({
        "exit": "os._exit({!r})", "sysexit": "sys.exit({!r})", "raise": "raise ValueError({!r})",
        "signal": "os.kill(os.getpid(), {!r})", "print": "print({!r})",
    }.get(kind, "pass").format(int(arg) if kind == "signal" else arg))
    action = "\n".join(lines)
    indented = "\n".join("    " + line for line in action.splitlines())
    if style == "stdio":
        code = f"import os, sys\n{action}\nx = int(input())\nprint({answer})\n"
    elif at_import:
        code = f"import os, sys\n{action}\ndef f(x):\n    return {answer}\n"
    else:
        code = f"import os, sys\ndef f(x):\n{indented}\n    return {answer}\n"
    return f"Here:\n```python\n{code}```\n" if fenced else code


TESTS = {
    "asserts": "assert f(1) == 2\nassert f(2) == 3\n",
    "pytest": "from solution import f\n\ndef test_one():\n    assert f(1) == 2\n\ndef test_two():\n    assert f(2) == 3\n",
    "stdio": json.dumps([{"input": "1\n", "output": "2\n"}, {"input": "2\n", "output": "3\n"}]),
    "call": json.dumps([{"args": [1], "output": 2}, {"args": [2], "output": 3}]),
}


@st.composite
def rows(draw, style: str) -> list[dict]:
    def sometimes(usual, odd, one_in: int = 6):
        return draw(odd) if draw(st.integers(1, one_in)) == 1 else usual

    out = []
    for _ in range(draw(st.integers(1, 3))):
        row = {
            "completion": sometimes(draw(st.builds(candidate, st.just(style), WRITES, ENDINGS, st.booleans(), st.booleans())), ANY_TEXT),
            "tests": sometimes(TESTS[style], ANY_TEXT | JSON_VALUES, 8),
            "id": draw(JSON_VALUES),
            "group": draw(JSON_VALUES),
        }
        if style == "call":
            row["fn_name"] = sometimes("f", JSON_VALUES)
        if style in ("stdio", "call") and draw(st.booleans()):
            row["compare"] = sometimes(draw(st.sampled_from(["tokens", "exact", "float:1e-3"])), ANY_TEXT | JSON_VALUES, 3)
        if style == "stdio" and draw(st.booleans()):
            row["language"] = sometimes(draw(st.sampled_from(["python", "py"])), ANY_TEXT | JSON_VALUES, 3)
        for name in draw(st.lists(ANY_TEXT, max_size=2)):
            row[name] = draw(JSON_VALUES)
        out.append(row)
    return out


@pytest.fixture(scope="module")
def grader(tmp_path_factory):
    cache = tmp_path_factory.mktemp("fuzz-cache") / "cache.sqlite"
    options = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=2.0, wall_s=6.0), id_col="id", group_col="group"),
                           concurrency=4, cache=str(cache))
    with Grader(options) as g:
        yield g


def _jsonl_line(row: dict) -> bytes:
    try:
        return json.dumps(row).encode()  # escapes lone surrogates: the reader then refuses the line
    except (TypeError, ValueError):
        return b'{"broken": '


def _as_parquet(rows: list[dict], path: str) -> None:
    """The rows as Parquet can hold them: text made valid, each column's values as their JSON."""
    names = sorted({safe_text(k) for r in rows for k in r})
    cols = {n: [] for n in names}
    for r in rows:
        clean = {safe_text(k): v for k, v in r.items()}
        for n in names:
            v = clean.get(n)
            cols[n].append(v if v is None else as_json_text(v))
    pq.write_table(pa.table({n: pa.array(vs, pa.string()) for n, vs in cols.items()}), path)


def _check_run(grader: Grader, tmp: str, src: str, n_rows: int) -> None:
    options = grader.options
    for out_name in ("out.jsonl", "out.parquet"):
        out = os.path.join(tmp, out_name)
        report = RunReport(options.checks.group_col, options.checks.id_col, 100, os.path.join(tmp, "junit.xml"))
        summary = score_file(src, out, options, on_row=lambda r, o, _d, _t, report=report: report.add(r, o), grader=grader)
        data = report.finish(summary.to_dict())
        json.dumps(data)  # the summary JSON
        ET.parse(os.path.join(tmp, "junit.xml"))  # the JUnit XML
        if out_name.endswith(".jsonl"):
            with open(out, "rb") as fh:
                written = [orjson.loads(line) for line in fh]
        else:
            written = pq.read_table(out).to_pylist()
        assert len(written) == n_rows == summary.rows
        for row in written:
            assert row["status"] in STATUSES
            assert (row["reward"] is None) == (row["status"] == "sandbox_error")
            assert isinstance(row["error"], str)
        assert data["grader_errors"] == 0, [r["error"] for r in written if r["status"] == "sandbox_error"]


SEEN: Counter = Counter()


@pytest.mark.parametrize("style", ["asserts", "pytest", "stdio", "call"])
def test_any_candidate_and_any_row_gets_one_verdict_and_the_files_parse(grader, tmp_path_factory, style):
    @FUZZ
    @given(rows(style))
    def run(batch):
        tmp = str(tmp_path_factory.mktemp(style))
        # JSONL as a user's file would hold it (text only, a line per row; rows JSON cannot
        # carry become broken lines: invalid_input), then the same rows as Parquet.
        src = os.path.join(tmp, "in.jsonl")
        with open(src, "wb") as fh:
            fh.write(b"\n".join(_jsonl_line(r) for r in batch) + b"\n")
        _check_run(grader, tmp, src, len(batch))
        src = os.path.join(tmp, "in.parquet")
        _as_parquet(batch, src)
        _check_run(grader, tmp, src, len(batch))
        # And as a trainer passes them: Python values, lone surrogates included.
        outcomes = grader.grade(batch)
        assert len(outcomes) == len(batch) and all(o.status in STATUSES for o in outcomes)
        SEEN.update(o.status for o in outcomes)
        assert not any(o.grader_error for o in outcomes), [o.error for o in outcomes]

    SEEN.clear()
    run()
    # The examples reach the sandbox and come back with every kind of verdict, not only
    # rows refused before running.
    assert "pass" in SEEN and len(set(SEEN) - {"invalid_input"}) >= 3, SEEN
