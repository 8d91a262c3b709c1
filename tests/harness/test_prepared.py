"""Asserts-style tests prepared once per text, by the grader (a small text) or by the first
check's child (a text past prepared.MAX_GRADER_TESTS), and shipped to every later check
(harness/prepared.py); the byte-bounded text cache behind it."""

from __future__ import annotations

import pytest

from rlvr_grade.types import Check, Limits
from rlvr_harness import prepared
from rlvr_harness.runner import prepare_asserts
from rlvr_harness.splitting import assert_ids
from rlvr_harness.textcache import TextCache
from rlvr_harness.wire import CheckPayload, Packed
from tests.conftest import requires_root

TESTS = """\
import math
def check(candidate):
    for x in range(3):
        assert candidate(x) == x + 1
    assert math.isclose(candidate(0.5), 1.5)

check(f)
"""


def _blob(tests: str) -> Packed:
    blob = prepared.make_here(tests, prepare_asserts)
    prepared._made_here.clear()
    return Packed(prepared.TAG, blob.decode())


def test_packed_tests_load_back_as_what_the_child_would_prepare():
    steps, loops, used, imports = prepared.unpack(_blob(TESTS))
    ref_steps, ref_loops, ref_used, ref_imports = prepare_asserts(TESTS)
    assert [(sid, is_check, lines, sets) for sid, _, is_check, lines, sets in steps] == [
        (sid, is_check, lines, sets) for sid, _, is_check, lines, sets in ref_steps]
    assert [code for _, code, *_ in steps] == [code for _, code, *_ in ref_steps]
    assert (loops, used, imports) == (ref_loops, ref_used, ref_imports)
    assert imports == ["math", "math.isclose"] and "candidate" in used and loops == [(3, 4)]  # an attribute chain too (runner._scan_tests)


def test_the_grader_keeps_only_what_this_interpreter_can_load():
    prepared.clear()
    assert prepared.pack(TESTS) is None  # nothing held: the first check's child prepares
    prepared.store(TESTS, Packed("cpython-399/0/1", _blob(TESTS).blob))
    assert prepared.pack(TESTS) is None
    prepared.store(TESTS, _blob(TESTS))
    held = prepared.pack(TESTS)
    assert held is not None and prepared.unpack(held) is not None
    assert prepared.unpack(None) is None
    assert prepared.unpack(Packed(prepared.TAG, "not base64 marshal")) is None
    assert prepared.make_here("assert (", prepare_asserts) is None  # the child then reports the syntax error itself


SOLVED = "def f(x):\n    return x + 1\n"
WRONG = "def f(x):\n    return x + 2\n"


def _check(program: str, tests: str = TESTS) -> Check:
    return Check(style="asserts", program=program, tests=tests, expected_tests=tuple(assert_ids(tests)),
                 limits=Limits(cpu_s=2.0, wall_s=10.0))


@pytest.fixture(scope="module")
def backend():
    from rlvr_grade.sandbox.local import LocalBackend

    b = LocalBackend(concurrency=1)
    b.start()
    yield b
    b.close()


def _verdicts(ex) -> list[tuple[str, str]]:
    return [(t.id, t.outcome) for t in ex.records]


@pytest.fixture
def child_prepares(monkeypatch):
    """Every text is one the grader leaves to its first check's child (a HumanEval+ test's size)."""
    monkeypatch.setattr(prepared, "MAX_GRADER_TESTS", 0)


@requires_root
def test_the_grader_prepares_a_small_text_before_its_first_check(backend):
    # A fresh check child paid ~6 ms and ~460 page faults to prepare a HumanEval test that the
    # grader prepares in ~3.4 ms: the first check already carries it, and sends nothing back.
    from rlvr_grade.sandbox.local import LocalBackend

    prepared.clear()
    payload = LocalBackend._payload(_check(SOLVED))
    assert payload.prepared is not None and not payload.send_prepared, "the first check of a small text was left to prepare it"
    steps, *_ = prepared.unpack(payload.prepared)
    assert [c for _, c, *_ in steps] == [c for _, c, *_ in prepare_asserts(TESTS)[0]]
    first, wrong = backend.run(_check(SOLVED)), backend.run(_check(WRONG))
    assert _verdicts(first) == [("check:7:4", "passed"), ("check:7:5", "passed")]
    assert _verdicts(wrong) == [("check:7:4", "failed"), ("check:7:5", "failed")]
    # what the grader cannot prepare is left to the child, which reports why
    deep = "assert f(1) == " + "+".join(["1"] * 600) + "\n"
    broken = Check(style="asserts", program=SOLVED, tests="assert (\n", expected_tests=(), limits=Limits(cpu_s=2.0, wall_s=10.0))
    assert LocalBackend._payload(broken).send_prepared and LocalBackend._payload(_check(SOLVED, deep)).send_prepared
    assert _verdicts(backend.run(_check("def f(x):\n    return 600\n", deep))) == [("check:1", "passed")]


def test_tests_prepared_under_python_O_keep_their_asserts():
    # The grader prepares the tests now, and a grader run as `python -O` compiled them without
    # their module-level asserts: every candidate passed them.
    import subprocess
    import sys

    code = ("from rlvr_harness.runner import prepare_asserts\n"
            "import marshal, sys\n"
            "sys.stdout.buffer.write(marshal.dumps([c for _, c, *_ in prepare_asserts('assert f(1) == 2\\n')[0]]))\n")
    import marshal
    import os

    import rlvr_harness

    root = os.path.dirname(os.path.dirname(rlvr_harness.__file__))
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, check=True, cwd=root,
                         env={**os.environ, "PYTHONPATH": root}).stdout
    assert marshal.loads(out) == [c for _, c, *_ in prepare_asserts("assert f(1) == 2\n")[0]]


@requires_root
def test_the_first_check_sends_its_tests_back_and_later_checks_use_them(backend, child_prepares):
    from rlvr_grade.sandbox.local import LocalBackend

    prepared.clear()
    first = backend.run(_check(SOLVED))
    held = prepared.pack(TESTS)
    assert held is not None, "the first check's child did not send its prepared tests back"
    payload = LocalBackend._payload(_check(SOLVED))
    assert payload.prepared is held and not payload.send_prepared
    again, wrong = backend.run(_check(SOLVED)), backend.run(_check(WRONG))
    assert _verdicts(first) == _verdicts(again) and all(o == "passed" for _, o in _verdicts(again))
    assert _verdicts(again) == [("check:7:4", "passed"), ("check:7:5", "passed")]
    assert _verdicts(wrong) == [("check:7:4", "failed"), ("check:7:5", "failed")]
    steps, *_ = prepared.unpack(held)
    assert [c for _, c, *_ in steps] == [c for _, c, *_ in prepare_asserts(TESTS)[0]]  # code objects compare by content


@requires_root
def test_a_candidate_cannot_plant_the_tests_later_checks_run(backend, child_prepares):
    # Only the harness writes the prepared tests, before candidate code runs, on a pipe it
    # closes first. A candidate writing a prepared form of `assert True` on every descriptor
    # reaches no one: what the grader keeps is the real tests, and a wrong answer still fails.
    tests = "assert f(1) == 2\n"
    forged = b"prepared " + prepared.TAG.encode() + b" " + prepared.make_here("assert True\n", prepare_asserts) + b"\n"
    prepared._made_here.clear()
    source = ("import os\n"
              f"FORGED = {forged!r}\n"
              "for fd in range(0, 1024):\n"
              "    try:\n"
              "        os.write(fd, FORGED + b'ok')\n"
              "    except OSError:\n"
              "        pass\n"
              "def f(x):\n    return 0\n")
    prepared.clear()
    assert backend.run(_check(source, tests)).records[0].outcome == "failed"
    held = prepared.pack(tests)
    assert held is not None
    steps, *_ = prepared.unpack(held)
    assert [c for _, c, *_ in steps] == [c for _, c, *_ in prepare_asserts(tests)[0]]  # code objects compare by content
    assert backend.run(_check(source, tests)).records[0].outcome == "failed"


def test_text_cache_is_bounded_by_bytes_and_keeps_the_recent():
    cache = TextCache(100, size_of=lambda v: 10)
    calls = []

    def compute(text):
        calls.append(text)
        return text.upper()

    for t in ("a" * 30, "b" * 30, "a" * 30, "c" * 30):  # 40 bytes each: the least recent goes
        cache.get(t, compute)
    assert calls == ["a" * 30, "b" * 30, "c" * 30] and len(cache) == 2
    cache.get("b" * 30, compute)
    assert calls[-1] == "b" * 30  # evicted, computed again
    assert cache.get("x" * 200, compute) == "X" * 200 and len(cache) <= 2  # too big to keep


def test_text_cache_does_not_keep_a_failure():
    cache = TextCache(1000)

    def boom(_text):
        raise ValueError("no")

    with pytest.raises(ValueError):
        cache.get("t", boom)
    assert cache.get("t", lambda t: 1) == 1


# -- the candidate compiled by the grader (prepared.pack_program) ------------------------------

# An assert and __debug__ in the candidate's own code: compiled with another optimization level
# (python -O strips both), f() would return 1 instead of failing.
DEBUGGY = "from __future__ import annotations\ndef f(x: int) -> int:\n    assert __debug__ and x != 1, 'no ones'\n    return x + 1\n"


def test_the_candidate_compiled_by_the_grader_is_the_childs_compile():
    for program in (SOLVED, DEBUGGY, "x = [i for i in range(3)]\nclass A:\n    def m(self):\n        return super().m()\n"):
        code = prepared.program_code(CheckPayload("asserts", program, program_code=prepared.pack_program(program)))
        assert code is not None
        assert code == compile(program, "solution.py", "exec", dont_inherit=True)  # compares by content
        assert code.co_filename == "solution.py"
    assert prepared.pack_program("def f(:\n") is None  # the child compiles it and reports the error
    assert prepared.pack_program("x = 1\n" * (prepared.MAX_PROGRAM // 6 + 1)) is None  # too big: compiled in its child
    assert prepared.program_code(CheckPayload("asserts", SOLVED, program_code=Packed("cpython-399/0/1", prepared.pack_program(SOLVED).blob))) is None
    assert prepared.program_code(CheckPayload("asserts", SOLVED, program_code=Packed(prepared.TAG, "bm90IG1hcnNoYWw="))) is None
    assert prepared.program_code(CheckPayload("asserts", SOLVED)) is None


@requires_root
def test_checks_run_the_candidate_the_grader_compiled_with_the_same_verdicts(backend):
    from rlvr_grade.sandbox.local import LocalBackend

    tests = "assert f(0) == 1\nassert f(1) == 2\n"
    check = _check(DEBUGGY, tests)
    assert LocalBackend._payload(check).program_code is not None
    ex = backend.run(check)
    assert [(t.outcome, "no ones" in t.message) for t in ex.records] == [("passed", False), ("failed", True)]
    syntax = backend.run(_check("def f(:\n", tests))
    assert LocalBackend._payload(_check("def f(:\n", tests)).program_code is None
    assert syntax.phase_error is not None and syntax.phase_error[0] == "compile"
    big = "# padding\n" * (prepared.MAX_PROGRAM // 10) + SOLVED
    assert LocalBackend._payload(_check(big, tests)).program_code is None
    assert [t.outcome for t in backend.run(_check(big, tests)).records] == ["passed", "passed"]


def test_the_tests_passes_see_every_child_node_in_asts_order():
    # splitting.child_nodes stands in for ast.iter_child_nodes in the passes over the tests
    # (prepare_asserts, once per text: its generators were ~40% of a walk): same nodes, same
    # order, on every node of real code (the harness's own source and these tests).
    import ast
    import os

    import rlvr_harness
    from rlvr_harness.splitting import child_nodes

    folder = os.path.dirname(rlvr_harness.__file__)
    sources = [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".py")] + [__file__]
    seen = 0
    for path in sources:
        with open(path) as fh:
            for node in ast.walk(ast.parse(fh.read())):
                assert child_nodes(node) == list(ast.iter_child_nodes(node)), (path, ast.dump(node)[:200])
                seen += 1
    assert seen > 50_000
