"""One passing and one failing row of every test style through the real local sandbox: the
smoke check `make test-fast` runs (the full suites per style are tests/styles/)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.checks.styles import STYLES
from rlvr_grade.types import Limits, Rollout, SandboxError

ROWS = {
    "asserts": ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n",
                {"tests": "assert add(1, 2) == 3\nassert add(2, 2) == 4\n"}),
    "pytest": ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n",
               {"tests": "from solution import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"}),
    "stdio": ("print(sum(map(int, input().split())))\n", "print(0)\n",
              {"tests": json.dumps([{"input": "1 2\n", "output": "3\n"}, {"input": "2 2\n", "output": "4\n"}])}),
    "call": ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return [a, b]\n",
             {"tests": json.dumps([{"args": [1, 2], "output": 3}]), "fn_name": "add"}),
}


@pytest.fixture(scope="module")
def grader():
    opts = CheckOptions(case_timeout=2.0, limits=Limits(cpu_s=5.0, memory_mb=512))
    with Grader(ScoreOptions(checks=opts, concurrency=2)) as g:
        yield g


@pytest.mark.parametrize("style", STYLES)
def test_each_style_passes_right_code_and_fails_wrong_code_in_the_sandbox(grader, style):
    right, wrong, extra = ROWS[style]
    good, bad = grader.grade([{"completion": right, **extra}, {"completion": wrong, **extra}])
    assert (good.status, good.reward) == ("pass", 1.0), good
    assert (bad.status, bad.reward) == ("fail", 0.0), bad


def test_every_style_has_a_smoke_row():
    assert set(ROWS) == set(STYLES)


def test_options_the_worker_cannot_read_fail_the_set_up_by_name_and_the_run_goes_on(grader):
    # A check's options are read before any candidate code runs: what does not have its type
    # (here a CPU limit sent as text) is the sandbox's failure naming the field, not a verdict
    # on the program (a harness reading it with float() took "2" for 2.0).
    right, _, extra = ROWS["stdio"]
    check = build_check(Rollout(0, {"completion": right, **extra}), CheckOptions(case_timeout=2.0))
    bad = dataclasses.replace(check, options=dataclasses.replace(check.options, case_cpu_s="2"))
    backend = grader.start().backend
    with pytest.raises(SandboxError, match="check setup failed: .*malformed check options: case_cpu_s is '2'"):
        backend.run(bad)
    assert [r.outcome for r in backend.run(check).records] == ["passed", "passed"]


def test_a_request_whose_limits_are_not_their_type_fails_the_set_up_by_name(grader):
    # The limits cross typed too (rlvr_harness/wire.py CheckLimits): the worker read them as a
    # dict with int(), so a memory limit sent as text ("256") was taken for a number.
    right, _, extra = ROWS["asserts"]
    check = build_check(Rollout(0, {"completion": right, **extra}), CheckOptions())
    wire = check.request().to_wire()
    backend = grader.start().backend
    slot = backend._free.get()
    try:
        worker = slot.worker("lean", "")
        with pytest.raises(SandboxError, match="check setup failed: .*malformed check limits: memory_mb is '256'"):
            worker.request({**wire, "limits": {**wire["limits"], "memory_mb": "256"}})
        assert worker.request(wire)["done"] is True  # the worker goes on
    finally:
        backend._free.put(slot)


def test_requests_travel_as_orjson_writes_them_where_the_worker_reads_back_what_the_stdlib_wrote(grader):
    # The grader encodes each request with orjson (local.encode_request: the stdlib's ASCII
    # escaping showed in the grader's profiles); wherever orjson would write something else
    # (non-finite floats as null, or a refusal), the stdlib's encoding goes instead, so the
    # worker, on the stdlib's json.loads, reads the same values either way.
    import orjson

    from rlvr_grade.sandbox import protocol
    from rlvr_grade.sandbox.local import encode_request

    plain = {"payload": {"program": "s = 'é ✓ 中'\n", "n": 2**63 - 1, "t": (1, 2.5)}}
    assert encode_request(plain) == orjson.dumps(plain)  # UTF-8 as it is, no \u escapes
    for odd in ({"x": float("nan")}, {"x": -float("inf")}, {"x": 2**64}, {"x": "\ud800"}, {1: "a"}, {"x": None},
                {"x": dataclasses.make_dataclass("D", ["a"])(1)}):
        try:
            expected = protocol.encode(odd)
        except TypeError:
            with pytest.raises(TypeError):
                encode_request(odd)
            continue
        assert encode_request(odd) == expected, odd
    # and through a worker: text past ASCII, an int past 64 bits, a float, None
    right = "def f(s, n, x, y):\n    return [s + '✓', n + 1, x * 2, y]\n"
    tests = json.dumps([{"args": ["é 中", 2**70, 1.25, None], "output": ["é 中✓", 2**70 + 1, 2.5, None]}])
    good, bad = grader.grade([{"completion": right, "tests": tests, "fn_name": "f"},
                              {"completion": right.replace("n + 1", "n"), "tests": tests, "fn_name": "f"}])
    assert (good.status, good.reward, bad.status) == ("pass", 1.0, "fail"), (good, bad)
