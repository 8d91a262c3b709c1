"""What a check inherits from its slot's worker (red team rtk, issue 16): a check is a fork of
the worker, so it starts with the worker's whole address space. Forked inside the worker's
request loop, it found there the report the worker sent for the *previous* check of the slot
(still bound in the loop's frame), memory the worker freed but never cleared, and a size that
grew with the previous check's output. "Nothing passes between consecutive checks of a slot"
(docs/sandbox.md) must hold for that memory too: the worker serves each request in a frame of
its own (zygote.serve_one), gone before the next check is forked.

Each test runs two or three checks in a row on one slot (--concurrency 1) of the real local
sandbox, the first printing a marker or a lot, the last looking for it, through both set-up
paths and the user-namespace mode. The fixtures are in tests/adversarial/ (their markers are
placeholders nothing else prints, so test_both_set_up_paths_give_the_same_verdicts scores them 0)."""

from __future__ import annotations

import uuid

import pytest

from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.checks.styles import score
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Limits, Rollout
from tests.conftest import requires_root
from tests.sandbox.test_adversarial import make_check, program

pytestmark = requires_root
LIMITS = Limits(cpu_s=2.0, wall_s=8.0, memory_mb=256, processes=32, output_bytes=2 << 20, file_bytes=4 << 20, disk_mb=16)


@pytest.fixture(scope="module", params=["c", "python", "userns"])
def slot(request):
    """One slot of the local sandbox, its checks set up in C (sandbox/_child.c), in Python, or
    under a user namespace (an unprivileged grader's mode, always Python)."""
    from rlvr_grade.sandbox import linux
    from rlvr_grade.sandbox.local import LocalBackend
    from rlvr_grade.sandbox.zygote import _c_setup

    if request.param == "c" and _c_setup() is None:
        pytest.skip("sandbox/_child.c is not built here (no compiler at install): the Python path is tested")
    options = {"c_setup": request.param == "c"}
    if request.param == "userns":
        ok, why = linux.user_namespaces_allowed()
        if not ok:
            pytest.skip(f"no user namespaces here: {why}")
        options = {"mode": "userns"}
    backend = LocalBackend(concurrency=1, seccomp=True, **options)
    backend.start()
    yield backend
    backend.close()


def _run(backend, source: str, tests: str = "assert not escaped()\n"):
    check = make_check(source, tests, LIMITS)
    ex = backend.run(check)
    return ex, score(check, ex, RewardConfig(), 0.0)


def _marker() -> dict[str, str]:
    mark = uuid.uuid4().hex
    return {"LEFT_HEAD": "rtk-left-", "LEFT_TAIL": mark}


def test_a_checks_sender_prints_its_marker(slot):
    """The control for the tests below: the first check's output reaches the grader whole."""
    m = _marker()
    ex, out = _run(slot, f"print({m['LEFT_HEAD']!r} + {m['LEFT_TAIL']!r})\ndef escaped():\n    return False\n")
    assert out.reward == 1.0 and m["LEFT_HEAD"] + m["LEFT_TAIL"] in ex.stdout, (out, ex.stdout[-300:])


def test_the_previous_checks_report_is_not_in_a_checks_frames(slot):
    m = _marker()
    _run(slot, f"print({m['LEFT_HEAD']!r} + {m['LEFT_TAIL']!r})\ndef escaped():\n    return False\n")
    ex, out = _run(slot, program("previous_report_in_the_workers_frame", **m), "assert escaped()\n")
    assert "holding the marker: 0" in ex.stdout, ex.stdout[-500:]
    assert (out.status, out.reward) == ("fail", 0.0), out


def _scan_after(backend, between: list[str]):
    m = _marker()
    _run(backend, f"print({m['LEFT_HEAD']!r} + {m['LEFT_TAIL']!r})\ndef escaped():\n    return False\n")
    for source in between:
        _run(backend, source)
    return _run(backend, program("previous_output_in_the_workers_heap", **m), "assert escaped()\n")


def test_the_previous_checks_output_is_not_in_a_checks_memory(slot):
    """The same through raw memory (the in-process guard off): the report bound in the worker's
    frame, and the buffers the worker read and encoded it in."""
    ex, out = _scan_after(slot, [])
    assert "copies in memory: 0" in ex.stdout, ex.stdout[-500:]
    assert (out.status, out.reward) == ("fail", 0.0), out


@pytest.mark.xfail(strict=False, reason="the worker still reads each check's output into memory it frees without "
                                        "clearing: found here in some runs (C path, 4 of 6), allocator-dependent "
                                        "(issue 16: the rule by construction is open, docs/sandbox.md)")
def test_an_older_checks_output_is_not_in_a_checks_memory(slot):
    """Two checks back, the check between printing something: no report of the worker holds the
    marker any more, only memory it freed without clearing (red team rtk)."""
    ex, _ = _scan_after(slot, ["print('x' * 4000)\ndef escaped():\n    return False\n"])
    assert "copies in memory: 0" in ex.stdout, ex.stdout[-500:]


def _footprint(ex) -> tuple[int, ...]:
    line = next(x for x in ex.stdout.splitlines() if x.startswith("footprint "))
    return tuple(int(v) for v in line.split()[1:])


@pytest.mark.xfail(strict=False, reason="the worker reads a check's output into memory it frees; the allocator keeps "
                                        "its heap ~800 KiB larger after an 800 KiB output or not, by what the worker "
                                        "did before (passes or fails by test order): issue 16, the rule by construction is open")
def test_a_checks_size_does_not_say_how_much_the_check_before_printed(slot):
    """A bit (or a number) between consecutive checks through what a check reads of its own
    size, with the in-process guard on: after a quiet check and after one that printed 800 KiB
    the same receiver must read the same VmData (a margin of 256 KiB for allocator noise; the
    worker that still holds the loud check's report gives ~800 KiB more, and so, in some
    histories, does a worker whose heap the allocator kept at the size it grew to)."""
    quiet = "def escaped():\n    return False\n"
    loud = "import sys\nsys.stdout.write('x' * (800 << 10))\ndef escaped():\n    return False\n"
    receiver = program("memory_footprint_receiver")
    readings = {}
    for name, sender in (("quiet", quiet), ("loud", loud)):
        _run(slot, sender)
        check = build_check(Rollout(index=0, row={"completion": receiver, "tests": "assert not escaped()\n"}),
                            CheckOptions(test_style="asserts", limits=LIMITS))
        ex = slot.run(check)
        assert score(check, ex, RewardConfig(), 0.0).reward == 1.0, ex.stderr[-500:]
        readings[name] = _footprint(ex)
    assert abs(readings["loud"][0] - readings["quiet"][0]) < 256, readings


GOOD = "n = int(input())\nprint(n * n * 7 + 3)\n"
WRONG = "n = int(input())\nprint(n)\n"
CASES = [{"input": "3\n", "output": "66\n"}, {"input": "5\n", "output": "178\n"}]
# A stdio "solution" that computes nothing: its case process is a fork of the harness, itself a
# fork of the worker, so it walks its own stack to the worker's loop, takes the report of the
# check before (each case's output) and prints that case's output. In a batch of an RL group
# (many samples of one problem in a row), it scores 1.0 whenever the check before it on its
# slot was right. The in-process guard (on here, as in every real run) only flags it.
COPY_PREVIOUS_ANSWERS = """import sys
case = previous = None
frame = sys._getframe()
while frame is not None:
    names = frame.f_locals
    if case is None and "inputs" in names and "i" in names:
        case = names["i"]
    if isinstance(names.get("resp"), dict):
        previous = names["resp"]
    frame = frame.f_back


def outputs(value):
    if isinstance(value, dict):
        if value.get("id") == f"case:{case}" and "output" in value:
            yield value["output"]
        for inner in value.values():
            yield from outputs(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from outputs(inner)


print(next(outputs(previous), ""), end="")
"""


def _stdio(backend, source: str):
    check = build_check(Rollout(index=0, row={"completion": source, "tests": CASES}),
                        CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=4.0, memory_mb=256)))
    return score(check, backend.run(check), RewardConfig(), 0.0)


def test_a_stdio_program_cannot_print_the_answers_of_the_check_before(slot):
    assert _stdio(slot, WRONG).reward == 0.0
    assert _stdio(slot, COPY_PREVIOUS_ANSWERS).reward == 0.0  # the control: the wrong answers copied
    assert _stdio(slot, GOOD).reward == 1.0
    out = _stdio(slot, COPY_PREVIOUS_ANSWERS + "# another row\n")
    assert (out.status, out.reward) == ("fail", 0.0), out


@pytest.mark.xfail(strict=True, reason="the worker's own objects (its configuration, its cgroup) are on every "
                                      "check's stack: issue 16, open (red team rtk)")
def test_the_workers_own_objects_name_no_grader_folder(tmp_path, monkeypatch):
    """docs/sandbox.md: a check learns nothing of the folders the grader runs from. The worker's
    objects on the check's stack do: its configuration lists the grader's working directory
    among the folders it hides (and its cgroup paths carry the grader's pid)."""
    from rlvr_grade.sandbox.local import LocalBackend

    cwd = tmp_path / f"rtk-cwd-{uuid.uuid4().hex}"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    backend = LocalBackend(concurrency=1, seccomp=True)
    backend.start()
    try:
        ex, out = _run(backend, program("grader_paths_in_the_workers_objects", LEFT_CWD=cwd.name), "assert escaped()\n")
    finally:
        backend.close()
    assert "folder: []" in ex.stdout, ex.stdout[-500:]
    assert (out.status, out.reward) == ("fail", 0.0), out
