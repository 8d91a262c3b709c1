"""Asserts-style tests prepared once in the grader (harness/prepared.py) and the byte-bounded
text cache behind it."""

from __future__ import annotations

import marshal

import pytest

from rlvr_grade.harness import prepared
from rlvr_grade.harness.runner import prepare_asserts
from rlvr_grade.textcache import TextCache

TESTS = """\
import math
def check(candidate):
    for x in range(3):
        assert candidate(x) == x + 1
    assert math.isclose(candidate(0.5), 1.5)

check(f)
"""


def test_packed_tests_load_back_as_what_the_child_would_prepare():
    prepared.pack(TESTS)
    steps, loops, used, imports = prepared.unpack(prepared.pack(TESTS))
    ref_steps, ref_loops, ref_used, ref_imports = prepare_asserts(TESTS)
    assert [(sid, is_check, lines) for sid, _, is_check, lines in steps] == [
        (sid, is_check, lines) for sid, _, is_check, lines in ref_steps]
    assert [marshal.dumps(code) for _, code, _, _ in steps] == [marshal.dumps(code) for _, code, _, _ in ref_steps]
    assert (loops, used, imports) == (ref_loops, ref_used, ref_imports)
    assert imports == ["math"] and "candidate" in used and loops == [(3, 4)]


def test_a_text_is_prepared_from_its_second_check_on_and_once():
    prepared.clear()
    assert prepared.pack(TESTS) is None  # the first check's child prepares it in parallel
    second = prepared.pack(TESTS)
    assert second is not None and prepared.pack(TESTS) is second


def test_another_interpreter_ignores_the_blob_and_broken_tests_carry_none():
    prepared.pack(TESTS)
    packed = dict(prepared.pack(TESTS), tag="cpython-399/0/1")
    assert prepared.unpack(packed) is None
    assert prepared.unpack(None) is None
    assert prepared.unpack({"tag": prepared.TAG, "blob": "not base64 marshal"}) is None
    prepared.pack("assert (")
    assert prepared.pack("assert (") is None  # the child reports the syntax error itself


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
