"""What crosses into the grader from a sandbox: decoded, validated and made storable in one
place (rlvr_grade/boundary.py, the worker's channel parser, the call decoder), so no report a
candidate can shape breaks a row's verdict, the cache or a writer. Property-based where the
input is arbitrary; the real sandbox end to end is in test_fuzz.py."""

from __future__ import annotations

import json
import math

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr_grade import scoring
from rlvr_grade.boundary import MalformedReport, execution_from_wire, plain_json_problem, safe_text
from rlvr_grade.cache import Cache
from rlvr_grade.checks import CheckOptions, build_check, styles
from rlvr_grade.sandbox.zygote import parse_channel
from rlvr_grade.scoring.compare import MalformedValue, decode
from rlvr_grade.types import STATUSES, Limits, Outcome, Rollout
from rlvr_harness.values import encode

# Reproducible in CI: the same examples every run, no deadline on a loaded machine.
FIXED = settings(derandomize=True, deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])

NONCE = "0123456789abcdef0123456789abcdef"
LIMITS = Limits(cpu_s=2.0)

# Text with everything Unicode allows in a Python str: lone surrogates included.
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()))
JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | ANY_TEXT
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4), max_leaves=20)


def deep(n: int, leaf: object = 0) -> object:
    for _ in range(n):
        leaf = [leaf]
    return leaf


def storable(text: str) -> bool:
    text.encode("utf-8")  # SQLite, orjson and Parquet all need exactly this
    return True


# -- safe text ---------------------------------------------------------------------------------
@FIXED
@given(ANY_TEXT)
def test_safe_text_is_storable_and_keeps_valid_text_as_is(text):
    out = safe_text(text)
    assert storable(out)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert "\ufffd" in out
    else:
        assert out == text


def test_safe_text_of_other_types_and_hostile_str():
    class Hostile:
        def __str__(self):
            raise RuntimeError("no")

    assert safe_text(None) == "None" and safe_text(12) == "12"
    assert safe_text(Hostile()) == "<Hostile>"
    assert safe_text("x" * 50, limit=10) == "x" * 10
    assert safe_text("\ud83d\ude00") == "\U0001F600"  # a pair of surrogates is one character


@FIXED
@given(ANY_TEXT)
def test_every_outcome_error_is_storable(text):
    for o in (scoring.invalid(text), scoring.infrastructure_failure(text),
              Outcome("fail", 0.0, 0, 1, 1.0, error=text)):
        assert storable(o.error)


# -- the worker's channel parser -----------------------------------------------------------------
CHANNEL_LINES = st.one_of(
    st.binary(max_size=200),
    JSON_VALUES.map(lambda v: NONCE.encode() + b" " + json.dumps(v).encode()),
    st.fixed_dictionaries({
        "ev": st.sampled_from(["test", "done", "phase", "other"]) | JSON_VALUES,
        "id": st.sampled_from(["check:1", "case:0"]) | JSON_VALUES,
        "outcome": st.sampled_from(["passed", "failed", "error", "skipped"]) | JSON_VALUES,
        "msg": JSON_VALUES,
        "output": JSON_VALUES,
        "phase": JSON_VALUES,
    }).map(lambda d: NONCE.encode() + b" " + json.dumps(d).encode()),
    st.integers(1, 5000).map(lambda n: NONCE.encode() + b" " + b"[" * n + b"]" * n),
    st.integers(400, 3000).map(lambda n: NONCE.encode() + b' {"ev": "test", "id": "check:1", "outcome": "passed", "output": '
                               + b"[" * n + b"]" * n + b"}"),
)


@FIXED
@given(st.lists(CHANNEL_LINES, max_size=8))
def test_channel_parser_never_raises_and_its_report_crosses_the_wire(lines):
    records, done, phase = parse_channel(b"\n".join(lines), NONCE)
    # What the worker sends the grader must survive its own JSON frame and the grader's checks.
    resp = json.loads(json.dumps({"records": records, "done": done, "phase": phase, "cpu_s": 0.1}))
    ex = execution_from_wire(resp, LIMITS)
    for rec in ex.records:
        assert rec.outcome in ("passed", "failed", "error", "skipped")
        assert storable(rec.id) and storable(rec.message)
        assert plain_json_problem(rec.output) is None


def test_channel_lines_deeper_than_json_reads_or_not_objects_are_dropped():
    # Fails without the guard: RecursionError / AttributeError ('list' object has no attribute 'get')
    # in the worker, which then dies and the row turns into a retried sandbox_error.
    assert parse_channel(b"\n" + NONCE.encode() + b" " + b"[" * 100_000 + b"]" * 100_000 + b"\n", NONCE) == ([], False, None)
    assert parse_channel(b"\n" + NONCE.encode() + b" [1, 2]\n", NONCE) == ([], False, None)


def test_a_record_with_an_output_deeper_than_any_honest_value_fails():
    line = NONCE.encode() + b' {"ev": "test", "id": "check:1", "outcome": "passed", "output": ' + json.dumps(deep(600)).encode() + b"}"
    records, _, _ = parse_channel(b"\n" + line + b"\n", NONCE)
    assert [(r["id"], r["outcome"], r["output"]) for r in records] == [("check:1", "error", None)]


# -- execution_from_wire -----------------------------------------------------------------------
RECORDS = st.lists(st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries({"id": st.sampled_from(["check:1", "check:2"]) | JSON_VALUES,
                           "outcome": st.sampled_from(["passed", "failed", "error", "skipped"]) | JSON_VALUES,
                           "message": JSON_VALUES, "output": JSON_VALUES}),
), max_size=5)


@FIXED
@given(RECORDS, st.booleans(), JSON_VALUES)
def test_wire_records_are_made_safe_and_fail_closed(records, done, phase):
    ex = execution_from_wire({"records": records, "done": done, "phase": phase, "stdout": "o", "stderr": "e"}, LIMITS)
    for rec, raw in zip(ex.records, records, strict=True):
        assert storable(rec.id) and storable(rec.message)
        if rec.outcome == "passed":  # only a well-formed passed record stays passed
            assert isinstance(raw, dict) and raw.get("outcome") == "passed"
    check = build_check(Rollout(0, {"completion": "x = 1", "tests": "assert x == 1\nassert x\n"}), CheckOptions())
    outcome = styles.score(check, ex, scoring.RewardConfig(), 1.0)
    assert outcome.status in STATUSES and storable(outcome.error)


@pytest.mark.parametrize("field,value", [
    ("cpu_s", "1"), ("cpu_s", float("nan")), ("wall_s", -1), ("exit_code", "0"), ("signal", 9.5),
    ("stdout", 5), ("records", {"a": 1}),
])
def test_grader_made_fields_of_the_wrong_type_are_a_malformed_report(field, value):
    with pytest.raises(MalformedReport, match=field):
        execution_from_wire({field: value}, LIMITS)
    with pytest.raises(MalformedReport):
        execution_from_wire([1, 2], LIMITS)


def test_wire_strings_with_lone_surrogates_become_storable():
    ex = execution_from_wire({"stdout": "a\ud800", "stderr": "\udfff", "phase": ["runtime", "ValueError: \ud800"],
                              "records": [{"id": "check:1\ud800", "outcome": "failed", "message": "\ud800"}]}, LIMITS)
    assert all(storable(t) for t in (ex.stdout, ex.stderr, ex.phase_error[1], ex.records[0].id, ex.records[0].message))
    assert ex.phase_error[0] == "runtime"
    assert execution_from_wire({"phase": ["bogus", "x"]}, LIMITS).phase_error[0] == "runtime"  # never nothing


# -- call values: the tagged-JSON decoder --------------------------------------------------------
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
    | st.frozensets(st.integers() | st.text(max_size=3), max_size=3)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3),
    max_leaves=12,
)


@FIXED
@given(PLAIN)
def test_decode_inverts_the_harness_encoder(value):
    assert decode(json.loads(json.dumps(encode(value)))) == value


@FIXED
@given(JSON_VALUES | st.fixed_dictionaries({}, optional={
    "$tuple": JSON_VALUES, "$set": JSON_VALUES, "$frozenset": JSON_VALUES, "$dict": JSON_VALUES,
    "$float": JSON_VALUES, "$bytes": JSON_VALUES}))
def test_decode_of_anything_returns_or_says_malformed(value):
    try:
        decode(value)
    except MalformedValue:
        pass


@pytest.mark.parametrize("forged", [
    {"$float": "abc"}, {"$float": 1.5}, {"$tuple": 5}, {"$tuple": "abc"}, {"$set": [{"$set": []}]},
    {"$dict": [[1]]}, {"$dict": [[{"$set": []}, 2]]}, {"$bytes": "zz"}, {"$bytes": 12}, deep(600),
])
def test_a_forged_return_value_is_judged_wrong_not_a_crash(forged):
    # Fails without the fix: decode raised ValueError/TypeError outside any handler and ended the run.
    from rlvr_grade.checks.styles import verdict as judge
    from rlvr_grade.types import Execution, TestRecord

    row = {"completion": "def f(x):\n    return x\n", "tests": json.dumps([{"args": [1], "output": 1}]), "fn_name": "f"}
    check = build_check(Rollout(0, row), CheckOptions())
    ex = Execution(0, None, "", "", 0.1, 0.1, 1.0, None, (TestRecord("case:0", "passed", "", {"value": forged}),), True)
    status, passed, total, error, cases = judge(check, ex)
    assert (status, passed, cases) == ("fail", 0, ("WA",)) and "cannot be judged" in error


# -- where the text goes: cache, writers -----------------------------------------------------------
def test_cache_stores_an_outcome_whose_error_had_a_lone_surrogate(tmp_path):
    # Fails without the fix: sqlite3 raised UnicodeEncodeError and the run ended.
    with Cache(str(tmp_path / "c.sqlite")) as cache:
        assert cache.put("k", Outcome("runtime_error", 0.0, 0, 1, 5.0, error="ValueError: \ud800"))
        assert cache.get("k").error == "ValueError: \ufffd"


ROWS = st.lists(st.dictionaries(ANY_TEXT, JSON_VALUES | st.integers(min_value=2**64) | st.just(deep(300)), max_size=4),
                min_size=1, max_size=6)


@settings(FIXED, max_examples=40)
@given(ROWS)
def test_writers_write_every_row_and_the_files_parse(tmp_path_factory, rows):
    import pyarrow.parquet as pq

    from rlvr_grade.io import open_output

    folder = tmp_path_factory.mktemp("out")
    for name in ("o.jsonl", "o.parquet"):
        sink = open_output(str(folder / name))
        for i, row in enumerate(rows):
            sink.write({**row, "status": "fail", "reward": 0.0, "error": f"row {i}"})
        sink.close()
    lines = (folder / "o.jsonl").read_bytes().splitlines()
    assert [orjson.loads(line)["error"] for line in lines] == [f"row {i}" for i in range(len(rows))]
    table = pq.read_table(folder / "o.parquet")
    assert table.column("error").to_pylist() == [f"row {i}" for i in range(len(rows))]


def test_parquet_keeps_columns_of_mixed_types_absent_at_first_or_always_empty(tmp_path):
    # Each of these ended the run (or, for the later column, silently dropped it) before.
    import pyarrow.parquet as pq

    from rlvr_grade.io import open_output

    rows = [{"id": 1, "meta": {}, "note": None}, {"id": "b", "meta": {}, "note": "n", "late": 3}]
    sink = open_output(str(tmp_path / "o.parquet"))
    for row in rows:
        sink.write({**row, "status": "pass"})
    sink.close()
    got = pq.read_table(tmp_path / "o.parquet").to_pylist()
    assert [(r["id"], r["meta"], r["note"], r["late"]) for r in got] == [("1", "{}", None, None), ("b", "{}", "n", 3)]
    assert sink.misfits == 3  # the int id and both {}, written as their JSON text


def test_parquet_counts_what_a_later_row_group_cannot_hold(tmp_path):
    import pyarrow.parquet as pq

    from rlvr_grade.io.writers import ParquetSink

    sink = ParquetSink(str(tmp_path / "o.parquet"), row_group_size=1)
    for row in ({"n": 1}, {"n": "x"}, {"n": 2, "new": 1}):
        sink.write({**row, "status": "pass"})
    sink.close()
    assert [r["n"] for r in pq.read_table(tmp_path / "o.parquet").to_pylist()] == [1, None, 2]
    assert sink.misfits == 2


def test_infinite_and_huge_numbers_stay_json(tmp_path):
    from rlvr_grade.io import open_output

    sink = open_output(str(tmp_path / "o.jsonl"))
    sink.write({"big": 2**70, "inf": math.inf, "text": "\ud800"})
    sink.close()
    assert orjson.loads((tmp_path / "o.jsonl").read_bytes()) == {"big": str(2**70), "inf": None, "text": "\ufffd"}
