"""The typed messages across the sandbox boundary (rlvr_harness/wire.py): what the grader tells a
worker (WorkerInit), what it asks of one check (CheckRequest: the payload a check's harness is
given, its style's options, its limits) and what a worker reports of a check (CheckReport). Decoding anything else is a WireError naming the field: never
a crash, never a half-read message, never a pass."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr_grade import scoring
from rlvr_grade.boundary import MalformedReport, execution_from_wire
from rlvr_grade.checks import CheckOptions, build_check, styles
from rlvr_grade.types import Limits, Rollout
from rlvr_harness.wire import (
    OPTIONS_OF,
    CallCase,
    CaseOptions,
    CheckLimits,
    CheckPayload,
    CheckReport,
    CheckRequest,
    Packed,
    SuiteOptions,
    ValidatedCase,
    ValidateOptions,
    WireError,
    WorkerInit,
    options_from_wire,
)

FIXED = settings(derandomize=True, deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=20)
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
                           max_leaves=10)
# Objects shaped like the messages, with fields of any type: the decoder's interesting half.
INIT_LIKE = st.dictionaries(st.sampled_from(["slot", "uid", "isolate", "mode", "warm", "cgroup", "hide", "env", "seccomp",
                                             "nproc_base", "tmp_keep", "c_setup", "other"]), JSON_VALUES)
REPORT_LIKE = st.dictionaries(st.sampled_from(["exit_code", "signal", "stdout", "stderr", "cpu_s", "wall_s", "peak_memory_mb",
                                               "killed_for_wall", "killed_for_cpu", "killed_for_output", "output_truncated",
                                               "oom", "done", "records", "phase", "channel_tampered", "prepared", "inner",
                                               "other"]), JSON_VALUES)
CHECK = build_check(Rollout(0, {"completion": "def f(x):\n    return x + 1\n", "tests": "assert f(1) == 2\nassert f(2) == 3\n"}),
                    CheckOptions())


@FIXED
@given(st.binary(max_size=300) | JSON_VALUES.map(lambda v: json.dumps(v).encode()) | REPORT_LIKE.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_as_a_report_decode_or_say_why_and_never_pass(data):
    try:
        report = CheckReport.from_bytes(data)
    except WireError as exc:
        assert str(exc).startswith("malformed sandbox report")
        return
    assert isinstance(report.cpu_s, float) and isinstance(report.done, bool) and isinstance(report.records, tuple)
    ex = execution_from_wire(report.to_wire(), Limits())
    assert styles.score(CHECK, ex, scoring.RewardConfig(), 1.0).status != "pass"


@FIXED
@given(INIT_LIKE | JSON_VALUES)
def test_any_value_as_a_worker_init_decodes_to_its_types_or_says_why(obj):
    try:
        init = WorkerInit.from_wire(obj)
    except WireError as exc:
        assert str(exc).startswith("malformed worker init")
        return
    assert type(init.slot) is int and type(init.uid) is int and type(init.isolate) is bool
    assert init.mode in ("root", "userns", "none") and all(type(p) is str for p in init.hide + init.tmp_keep)
    assert WorkerInit.from_wire(json.loads(json.dumps(init.to_wire()))) == init


def test_the_local_backends_init_crosses_as_is():
    init = WorkerInit(slot=3, uid=60003, isolate=True, cgroup="rlvr-x-slot3", hide=("/root",), env={"PATH": "/usr/bin"},
                      tmp_keep=("/tmp/venv",), warm="lean")
    assert WorkerInit.from_wire(json.loads(json.dumps(init.to_wire()))) == init
    assert init.mode == "root" and WorkerInit(slot=0, uid=1, isolate=False).mode == "none"


@pytest.mark.parametrize(("obj", "named"), [
    ({"slot": 0, "uid": "0", "isolate": True}, "uid"),  # a dict read as Config took any type
    ({"slot": 0, "uid": 0, "isolate": 1}, "isolate"),
    ({"slot": 0, "uid": 0, "isolate": True, "mode": "chroot"}, "mode"),
    ({"slot": 0, "uid": 0, "isolate": True, "hide": "/root"}, "hide"),
    ({"slot": 0, "uid": 0, "isolate": True, "env": {"PATH": 1}}, "env"),
    ({"slot": 0, "uid": 0, "isolate": True, "seccomp_off": True}, "seccomp_off"),
    ({"slot": 0, "isolate": True}, "uid"),
])
def test_a_worker_init_that_is_not_what_it_says_is_refused_by_name(obj, named):
    with pytest.raises(WireError, match=named):
        WorkerInit.from_wire(obj)


@pytest.mark.parametrize(("obj", "named"), [
    ({"done": "yes"}, "done"), ({"oom": 1}, "oom"), ({"killed_for_output": None}, "killed_for_output"),
    ({"verdict": "pass"}, "verdict"),
])
def test_a_report_flag_or_field_the_worker_never_writes_is_a_malformed_report(obj, named):
    # A flag read by truth value let "done": "yes" count as done; an unknown field was ignored.
    with pytest.raises(MalformedReport, match=named):
        execution_from_wire(obj, Limits())


def test_the_workers_report_round_trips():
    report = CheckReport(exit_code=0, stdout="ok", cpu_s=0.25, wall_s=0.5, done=True,
                         records=({"id": "check:1", "outcome": "passed", "message": "", "output": None},),
                         channel_tampered="")
    wire = report.to_wire()
    assert "channel_tampered" not in wire and "prepared" not in wire  # absent unless said
    assert CheckReport.from_bytes(json.dumps(wire).encode()) == report


def test_a_report_goes_on_the_wire_as_asdict_wrote_it_without_copying_its_values():
    # The worker's to_wire was dataclasses.asdict, which deep-copies every record, the phase and
    # `inner` for a copy encoded once and dropped (~0.2-0.5 ms of the worker's CPU a check). The
    # same JSON, from the values themselves.
    records = tuple({"id": f"check:{i}", "outcome": "passed", "message": "é", "output": [i, {"a": None}]} for i in range(3))
    for report in (CheckReport(exit_code=1, signal=None, stdout="out", stderr="err", cpu_s=0.5, wall_s=1.0, done=True,
                               records=records, phase={"at": ["tests", 2]}, channel_tampered="x",
                               prepared=Packed("tag", "blob"), inner={"runner": [1, 2]}),
                   CheckReport(records=records)):
        wire = report.to_wire()
        reference = dataclasses.asdict(report)
        reference["records"] = list(report.records)
        reference = {k: v for k, v in reference.items() if v or k not in ("channel_tampered", "prepared", "inner")}
        assert json.dumps(wire) == json.dumps(reference)
        assert all(a is b for a, b in zip(wire["records"], records, strict=True)) and wire["phase"] is report.phase
        assert CheckReport.from_bytes(json.dumps(wire).encode()) == report


# -- a check's options (Check.options on the grader's side, payload["options"] on the wire) ------
POSITIVE = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False)
PLAIN = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
                     max_leaves=8)
SUITE_OPTIONS = st.builds(SuiteOptions, guard=st.booleans())
CALL_CASES = st.builds(CallCase, args=st.lists(PLAIN, max_size=3).map(tuple),
                       kwargs=st.dictionaries(ANY_TEXT, PLAIN, max_size=3).map(lambda d: tuple(d.items())))
CASE_OPTIONS = st.builds(CaseOptions, case_cpu_s=POSITIVE, budget_cpu_s=POSITIVE, stop_on_fail=st.booleans(),
                         output_cap=st.integers(1, 1 << 40), memory_mb=st.integers(1, 1 << 20),
                         inputs=st.lists(ANY_TEXT, max_size=3).map(tuple), calls=st.lists(CALL_CASES, max_size=3).map(tuple),
                         fn_name=ANY_TEXT)
VALIDATED = st.builds(ValidatedCase, i=st.integers(0, 1000), input=ANY_TEXT, answer=ANY_TEXT, output=ANY_TEXT)
VALIDATE_OPTIONS = st.builds(ValidateOptions, language=ANY_TEXT, main=ANY_TEXT,
                             files=st.dictionaries(ANY_TEXT, ANY_TEXT, max_size=3).map(lambda d: tuple(d.items())),
                             args=st.lists(ANY_TEXT, max_size=3).map(tuple), cases=st.lists(VALIDATED, max_size=3).map(tuple),
                             case_cpu_s=POSITIVE, binary=ANY_TEXT, send_binary=st.booleans())
STYLE_OF = {SuiteOptions: "asserts", CaseOptions: "stdio", ValidateOptions: "validate"}
OPTIONS_LIKE = st.dictionaries(st.sampled_from(["guard", "case_cpu_s", "budget_cpu_s", "stop_on_fail", "output_cap", "memory_mb",
                                                "inputs", "calls", "fn_name", "language", "main", "files", "args", "cases",
                                                "binary", "send_binary", "judge", "other"]), JSON_VALUES)


@FIXED
@given(SUITE_OPTIONS | CASE_OPTIONS | VALIDATE_OPTIONS)
def test_any_valid_options_cross_the_wire_as_they_are(opts):
    wire = json.loads(json.dumps(opts.to_wire()))  # what the worker's frame carries
    assert options_from_wire(STYLE_OF[type(opts)], wire) == opts


@FIXED
@given(st.sampled_from(sorted(OPTIONS_OF)), OPTIONS_LIKE | JSON_VALUES)
def test_any_value_as_options_decodes_to_its_style_s_type_or_says_why(style, obj):
    try:
        opts = options_from_wire(style, obj)
    except WireError as exc:
        assert str(exc).startswith("malformed check options")
        return
    assert type(opts) is OPTIONS_OF[style]
    assert options_from_wire(style, json.loads(json.dumps(opts.to_wire()))) == opts


@pytest.mark.parametrize(("style", "obj", "named"), [
    ("stdio", {"case_cpu_s": "2"}, "case_cpu_s"),  # read with float() it was any text of a number
    ("stdio", {"case_cpu_s": 0}, "case_cpu_s"),
    ("stdio", {"stop_on_fail": 0}, "stop_on_fail"),  # read with bool(): 0 and "no" both meant something
    ("stdio", {"inputs": "1 2\n"}, "inputs"),
    ("call", {"calls": [{"args": {"a": 1}}]}, "args"),
    ("call", {"calls": [{"args": [], "kwargs": [["a", 1]]}]}, "kwargs"),
    ("call", {"judge": {"compare": "exact"}}, "judge"),  # how outputs are judged never enters the sandbox
    ("asserts", {"guard": "off"}, "guard"),
    ("pytest", {"case_cpu_s": 1.0}, "case_cpu_s"),  # an option of another style
    ("validate", {"cases": [{"i": 0, "input": "", "answer": ""}]}, "output"),
    ("validate", {"files": {"validate.py": 1}}, "files"),
    ("nonsense", {}, "style"),
])
def test_options_that_are_not_what_their_style_takes_are_refused_by_name(style, obj, named):
    with pytest.raises(WireError, match=named):
        options_from_wire(style, obj)


def test_a_check_holds_its_style_s_options_and_judges_outside():
    stdio = build_check(Rollout(0, {"completion": "print(1)", "tests": json.dumps([{"input": "", "output": "1"}])}),
                        CheckOptions(compare="float:1e-3"))
    assert type(stdio.options) is CaseOptions and stdio.options.inputs == ("",)
    assert stdio.judge.compare == "float" and stdio.judge.abs_tol == 1e-3
    assert set(stdio.payload().to_wire()["options"]) == {f.name for f in dataclasses.fields(CaseOptions)} - {"calls", "fn_name"}
    assert type(CHECK.options) is SuiteOptions and CHECK.options.guard
    with pytest.raises(TypeError, match="CaseOptions"):
        dataclasses.replace(stdio, options=SuiteOptions())


# -- one check's request (Check.request(); what a worker or the one-shot runner reads) ------------
REQUEST_LIKE = st.fixed_dictionaries({"payload": st.fixed_dictionaries(
    {"style": st.sampled_from(["asserts", "pytest", "stdio", "call", "validate", "other"]), "program": JSON_VALUES},
    optional={k: JSON_VALUES for k in ("tests", "setup", "language", "options", "prepared", "send_prepared",
                                       "program_code", "files")})},
    optional={"limits": st.dictionaries(st.sampled_from(["cpu_s", "wall_s", "memory_mb", "processes", "output_bytes",
                                                         "file_bytes", "disk_mb", "other"]), JSON_VALUES),
              **{k: JSON_VALUES for k in ("token", "seccomp", "uid", "announce", "other")}})


@FIXED
@given(REQUEST_LIKE | JSON_VALUES)
def test_any_value_as_a_check_request_decodes_to_its_types_or_says_why(obj):
    try:
        req = CheckRequest.from_wire(obj)
    except WireError as exc:
        assert str(exc).startswith("malformed check")
        return
    assert type(req.payload.program) is str and type(req.payload.options) is OPTIONS_OF[req.payload.style]
    assert type(req.limits.cpu_s) is float and type(req.limits.memory_mb) is int
    assert CheckRequest.from_wire(json.loads(json.dumps(req.to_wire()))) == req


def test_the_requests_backends_send_cross_as_they_are():
    local = dataclasses.replace(CHECK.request(), payload=dataclasses.replace(
        CHECK.payload(), prepared=Packed("cpython-311/0/6", "YWJj"), program_code=Packed("cpython-311/0/6", "ZGVm")))
    remote = dataclasses.replace(CHECK.request(), token="ab" * 16, seccomp={"arch": "x86_64", "program": "..."}, uid=300001,
                                 announce=True)
    for req in (local, remote, dataclasses.replace(CHECK.request(), payload=dataclasses.replace(CHECK.payload(), send_prepared=True))):
        assert CheckRequest.from_wire(json.loads(json.dumps(req.to_wire()))) == req
    assert local.limits == CheckLimits(cpu_s=CHECK.limits.cpu_s, wall_s=CHECK.limits.effective_wall_s)
    assert set(CHECK.request().to_wire()) == {"payload", "limits"}  # the runner's fields are absent unless said


@pytest.mark.parametrize(("obj", "named"), [
    # Read as a dict, int("256") and float("2") took text for a number, and an unknown key was ignored.
    ({"payload": {"style": "asserts", "program": ""}, "limits": {"memory_mb": "256"}}, "memory_mb"),
    ({"payload": {"style": "asserts", "program": ""}, "limits": {"cpu_s": "2"}}, "cpu_s"),
    ({"payload": {"style": "asserts", "program": ""}, "limits": {"wall_s": float("inf")}}, "wall_s"),
    ({"payload": {"style": "asserts", "program": ""}, "limits": {"processes": 64.0}}, "processes"),
    ({"payload": {"style": "asserts", "program": ""}, "limits": {"cpu": 2}}, "cpu"),
    ({"payload": {"style": "asserts", "program": None}}, "program"),
    ({"payload": {"style": "asserts", "program": "", "files": {"x.py": ""}}}, "files"),
    ({"payload": {"style": "asserts", "program": "", "send_prepared": 1}}, "send_prepared"),
    ({"payload": {"style": "asserts", "program": "", "prepared": {"tag": "t"}}}, "blob"),
    ({"payload": {"style": "asserts", "program": "", "program_code": "code"}}, "program_code"),
    ({"payload": {"style": "stdio", "program": "", "options": {"guard": True}}}, "guard"),
    ({"payload": {"style": "shell", "program": ""}}, "style"),
    ({"payload": {"style": "asserts", "program": ""}, "uid": -1}, "uid"),
    ({"payload": {"style": "asserts", "program": ""}, "seccomp": "allow"}, "seccomp"),
    ({"limits": {}}, "payload"),
])
def test_a_request_that_is_not_what_it_says_is_refused_by_name(obj, named):
    with pytest.raises(WireError, match=named):
        CheckRequest.from_wire(obj)


def test_a_payload_holds_its_style_s_options():
    assert CheckPayload("call", "").options == CaseOptions()
    with pytest.raises(WireError, match="style"):
        CheckPayload("shell", "")
    with pytest.raises(WireError, match="SuiteOptions"):
        CheckPayload("stdio", "", options=SuiteOptions())


def test_a_worker_reads_a_message_classs_field_names_once_and_still_refuses_unknown_ones(monkeypatch):
    """A worker reads one request a check, after forking the previous check, so every object the
    read touches is a page written again: dataclasses.fields() made a tuple of each message
    class's Field objects for every message (~20 of ~75 page faults a request). The names are
    read once per class; an unknown field is still refused by name, the first and the hundredth time."""
    from rlvr_harness import wire

    check = build_check(Rollout(0, {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}), CheckOptions())
    sent = check.request().to_wire()
    wire.CheckRequest.from_wire(sent)  # the worker's first request
    read = []
    real = wire.fields
    monkeypatch.setattr(wire, "fields", lambda cls: read.append(cls) or real(cls))
    for _ in range(3):
        assert wire.CheckRequest.from_wire(sent) == check.request()
    assert read == [], [c.__name__ for c in read]
    for _ in range(2):
        with pytest.raises(WireError, match="malformed check: unknown field 'files'"):
            wire.CheckRequest.from_wire({**sent, "payload": {**sent["payload"], "files": []}})
