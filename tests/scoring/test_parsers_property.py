"""Arbitrary input to the parsers and comparisons outside the sandbox gets a verdict, never a
crash: a row of any shape becomes a check or `invalid_input` (checks/build.py's InvalidRow, for
every preset and style), case layouts of any content parse or say why (checks/cases.py), a
call's returned value against any expected value is equal or not (scoring/compare.py), with or
without a float tolerance, and a call's or a stdio case's record of any content is AC or WA.
Property-based, derandomized (the same examples in CI); no sandbox. The channel's reader and the
wire are in test_boundary.py and test_wire.py, stdout comparisons in test_compare_tokens.py."""

from __future__ import annotations

import base64
import json
import math
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr_grade.checks import CheckOptions, InvalidRow, build_check
from rlvr_grade.checks import call as call_style
from rlvr_grade.checks import stdio as stdio_style
from rlvr_grade.checks.cases import CaseError, leetcode_cases, parse_cases
from rlvr_grade.scoring.compare import decode, parse_mode, values_equal
from rlvr_grade.types import Check, Rollout
from rlvr_harness.values import encode

FIXED = settings(derandomize=True, deadline=None, max_examples=100, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=30)
# Integers past a float's range, as a dataset or a program can hold them (under int<->str's
# 4,300-digit limit, which hypothesis' own reports need).
BIG_INTS = st.integers() | st.integers(10 ** 300, 10 ** 320) | st.integers(-10 ** 320, -10 ** 300)
FLOATS = st.floats(allow_nan=True, allow_infinity=True)
JSON_SCALARS = st.none() | st.booleans() | BIG_INTS | FLOATS | ANY_TEXT
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
                           max_leaves=12)

# Test code: fragments that make odd but often parseable Python of every shape the splitters
# look at (top-level asserts, check() helpers, pytest functions and classes, TestCases, marks).
FRAGMENTS = st.sampled_from([
    "assert f(1) == 2\n", "assert ", "f(", ")", "(", "[", "]", ":", " == ", " in ", "1", "'x'", "\n", "    ", "\t",
    "def check(candidate):\n", "    assert candidate(1) == 2\n", "check(f)\n", "def test_a():\n", "    pass\n",
    "class TestX:\n", "    def test_m(self):\n", "        assert True\n", "import unittest\n",
    "class T(unittest.TestCase):\n", "@pytest.mark.parametrize('x', [1, 2])\n", "@pytest.mark.skip\n",
    "@pytest.mark.xfail(strict=True)\n", "import pytest\n", "from solution import *\n", "lambda: 0", "yield 1\n",
    "async def test_b():\n", "if __name__ == '__main__':\n", "    unittest.main()\n", "global g\n", "#", "\\\n",
    "del x\n", "match x:\n    case 1:\n        pass\n", "\x00", "\ufeff", "return 1\n", "*", "**", "@", ";",
])
TEST_CODE = st.lists(FRAGMENTS, max_size=25).map("".join) | ANY_TEXT
# Case records of any content under the keys the layouts read.
CASE_KEYS = ["input", "output", "inputs", "outputs", "args", "kwargs", "expected", "fn_name", "testtype", "metadata"]
CASE = st.dictionaries(st.sampled_from(CASE_KEYS) | ANY_TEXT, JSON_VALUES, max_size=5)
CASES = st.lists(CASE, max_size=4) | CASE | st.lists(CASE, max_size=4).map(json.dumps) | CASE.map(json.dumps)
TESTS = TEST_CODE | CASES | JSON_VALUES | st.lists(TEST_CODE, max_size=3)

OPTIONS = [CheckOptions(preset=p, test_style=s) for p in ("none", "humaneval", "mbpp", "leetcode")
           for s in ("auto", "asserts", "pytest", "stdio", "call")] + [CheckOptions(tests_col="tests+private")]


@st.composite
def rows(draw) -> dict:
    row = {"completion": draw(st.sampled_from(["def f(x):\n    return x + 1\n", "```python\nprint(1)\n```"]) | ANY_TEXT),
           "tests": draw(TESTS)}
    for col, values in (("prompt", TEST_CODE | JSON_VALUES), ("entry_point", st.just("f") | JSON_VALUES),
                        ("test", TESTS), ("test_list", st.lists(TEST_CODE, max_size=3) | JSON_VALUES),
                        ("test_imports", st.lists(TEST_CODE, max_size=2) | JSON_VALUES), ("private", CASES | JSON_VALUES),
                        ("fn_name", st.just("f") | JSON_VALUES), ("compare", st.sampled_from(["float", "float:1e-3", "exact"]) | JSON_VALUES),
                        ("language", st.sampled_from(["python", "cpp"]) | JSON_VALUES)):
        if draw(st.booleans()):
            row[col] = draw(values)
    return row


@FIXED
@given(rows(), st.sampled_from(range(len(OPTIONS))))
def test_any_row_is_a_check_or_invalid_input_under_every_preset_and_style(row, which):
    try:
        check = build_check(Rollout(0, row), OPTIONS[which].resolved())
    except InvalidRow as exc:
        assert str(exc)
    else:
        assert isinstance(check, Check) and check.style in ("asserts", "pytest", "stdio", "call")


@FIXED
@given(CASES | JSON_VALUES, st.none() | st.just("f") | ANY_TEXT)
def test_any_case_layout_parses_or_says_why(value, fn_name):
    try:
        cs = parse_cases(value, "tests", fn_name)
    except CaseError as exc:
        assert str(exc)
    else:
        assert cs.kind in ("stdio", "call")


@FIXED
@given(TEST_CODE | JSON_VALUES)
def test_any_leetcode_tests_become_cases_or_stay_code(tests):
    cs = leetcode_cases(tests)
    assert cs is None or cs.kind == "call"


# -- a call's return value against the expected one ---------------------------------------------
PLAIN = st.recursive(
    st.none() | st.booleans() | BIG_INTS | FLOATS | ANY_TEXT | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.frozensets(st.none() | st.booleans() | BIG_INTS | FLOATS | ANY_TEXT, max_size=3)
    | st.dictionaries(st.none() | BIG_INTS | ANY_TEXT | st.tuples(BIG_INTS, ANY_TEXT), inner, max_size=3),
    max_leaves=10)
SPECS = [None, parse_mode("float"), parse_mode("float:0"), parse_mode("float:1e-3:0"), parse_mode("exact")]


def _has_nan(v) -> bool:
    if isinstance(v, float):
        return math.isnan(v)
    if isinstance(v, dict):
        return any(_has_nan(k) or _has_nan(x) for k, x in v.items())
    if isinstance(v, (list, tuple, set, frozenset)):
        return any(_has_nan(x) for x in v)
    return False


@FIXED
@given(PLAIN, PLAIN | JSON_VALUES, st.sampled_from(range(len(SPECS))), st.booleans())
def test_any_returned_value_against_any_expected_is_equal_or_not(got, want, spec, json_expected):
    assert values_equal(got, want, SPECS[spec], json_expected) in (True, False)
    if not _has_nan(got):
        assert values_equal(got, got, SPECS[spec], json_expected) is True


def test_an_int_past_a_floats_range_against_a_float_is_compared_not_a_crash():
    # Raised OverflowError in the grader (`abs(10**400 - 1.5)`): the candidate chooses the
    # value it returns, so a row compared with a float tolerance could not be judged.
    for spec in SPECS[1:4]:
        assert values_equal(10 ** 400, 1.5, spec) is False
        assert values_equal(1.5, 10 ** 400, spec) is False
        assert values_equal(10 ** 400, 1e308, spec) is False
        assert values_equal(float(10 ** 300), 10 ** 300, spec) is True
    # the same rule, exactly: |1e308 - 10**309| = 9e308 is within a relative tolerance of 1
    assert values_equal(1e308, 10 ** 309, parse_mode("float:0:1")) is True
    assert values_equal(1e308, 10 ** 309, parse_mode("float:0:0.5")) is False


@FIXED
@given(PLAIN, st.sampled_from(["tokens", "float", "float:1e-3"]))
def test_a_calls_verdict_is_ac_or_wa_for_any_value_the_program_returns(got, compare):
    row = {"completion": "def f(x):\n    return x\n", "fn_name": "f", "compare": compare,
           "tests": json.dumps([{"args": [1], "output": [1, 2.5, "x"]}, {"args": [2], "output": 1.5}])}
    check = build_check(Rollout(0, row), CheckOptions(test_style="call"))
    for i in range(2):
        verdict, msg = call_style.compare_output(check, i, {"value": encode(got)})
        assert verdict in ("AC", "WA") and isinstance(msg, str)
        # what the encoder writes decodes to a value equal to what was returned
        assert _has_nan(got) or values_equal(decode(encode(got)), got, None, False)


# -- what a case's record carries back, as the verdict reads it --------------------------------
TAGGED = st.recursive(JSON_SCALARS | st.fixed_dictionaries({"$float": ANY_TEXT | st.sampled_from(["nan", "inf", "-inf"])})
                      | st.fixed_dictionaries({"$bytes": ANY_TEXT | st.just("00ff")})
                      | st.fixed_dictionaries({"$int": ANY_TEXT | st.just("-" + "f" * 3600) | JSON_SCALARS}),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3)
                      | st.fixed_dictionaries({"$tuple": inner}) | st.fixed_dictionaries({"$set": inner})
                      | st.fixed_dictionaries({"$frozenset": inner}) | st.fixed_dictionaries({"$dict": inner}),
                      max_leaves=10)


@FIXED
@given(st.fixed_dictionaries({"value": TAGGED}) | JSON_VALUES)
def test_a_calls_verdict_is_ac_or_wa_for_any_record(out):
    row = {"completion": "def f(x):\n    return x\n", "fn_name": "f",
           "tests": json.dumps([{"args": [1], "output": [1, 2.5, "x"]}, {"args": [2], "output": {"a": None}}])}
    check = build_check(Rollout(0, row), CheckOptions(test_style="call"))
    for i in range(2):
        verdict, msg = call_style.compare_output(check, i, out)
        assert verdict in ("AC", "WA") and isinstance(msg, str)


@FIXED
@given(ANY_TEXT | st.fixed_dictionaries({"z": ANY_TEXT | st.binary(max_size=64).map(lambda b: base64.b64encode(b).decode())
                                          | st.binary(max_size=64).map(lambda b: base64.b64encode(zlib.compress(b)).decode())})
       | JSON_VALUES, st.sampled_from(["tokens", "exact", "lines-unordered", "float", "float:1e-3"]))
def test_a_stdio_verdict_is_ac_or_wa_for_any_record(out, compare):
    row = {"completion": "print(input())", "compare": compare, "tests": json.dumps([{"input": "1\n", "output": "1\n"}])}
    check = build_check(Rollout(0, row), CheckOptions(test_style="stdio"))
    verdict, msg = stdio_style.compare_output(check, 0, out)
    assert verdict in ("AC", "WA") and isinstance(msg, str)
