"""The call style end to end through the real local sandbox: functions and LeetCode `Solution`
methods, strict equality outside the sandbox, the value encoding, and the reward hacks that
target call-based graders (rigged __eq__, reading the grader's frames, state across cases)."""

from __future__ import annotations

import json
import math

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.checks.cases import leetcode_cases
from rlvr_grade.scoring.compare import CompareSpec, MalformedValue, decode, values_equal
from rlvr_grade.types import Limits, Rollout
from rlvr_harness.values import NotPlain, encode
from tests.conftest import requires_root

OPTS = CheckOptions(test_style="call", case_timeout=1.0, limits=Limits(cpu_s=4.0, memory_mb=256))


@pytest.fixture(scope="module")
def grader():
    with Grader(ScoreOptions(checks=OPTS, concurrency=2)) as g:
        yield g


def row(code: str, cases: list, fn: str = "f", **extra) -> dict:
    return {"completion": code, "tests": json.dumps(cases), "fn_name": fn, **extra}


ADD = [{"args": [1, 2], "output": 3}, {"args": [], "kwargs": {"a": 5, "b": 6}, "output": 11}]


# -- encoding and strict equality (pure) ---------------------------------------------------------
def test_encoding_keeps_types_apart():
    values = [(1, 2), [1, 2], {1, 2}, frozenset({3}), {"a": 1}, {1: "x", (1, 2): None}, float("inf"), float("-inf"),
              b"\x00\xff", True, 1, 1.5, None, "s", {"$tuple": 1}]
    for v in values:
        wire = json.loads(json.dumps(encode(v)))
        back = decode(wire)
        assert type(back) is type(v) and back == v, (v, wire, back)
    assert math.isnan(decode(encode(float("nan"))))
    assert encode((1, [2])) != encode([1, [2]])


def test_encoding_refuses_anything_not_plain():
    class Liar:
        def __eq__(self, other):
            return True

    for bad in (Liar(), [1, Liar()], {"k": Liar()}, object(), lambda: 1, complex(1, 2)):
        with pytest.raises(NotPlain):
            encode(bad)


def test_a_builtin_subclass_is_encoded_as_the_value_it_stores():
    """A defaultdict, Counter, OrderedDict, namedtuple or IntEnum is a correct answer where a
    dict, tuple or int is expected; read with the base type's own methods, so an override
    (a liar's __eq__, __iter__, items(), __str__) is never consulted."""
    import collections
    import enum

    class MyInt(int):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

        def __index__(self):
            return 99

    class Text(str):
        def __str__(self):
            return "lie"

    class Items(dict):
        def items(self):
            return [("k", 99)]

        def __iter__(self):
            return iter(["zz"])

    class Color(enum.IntEnum):
        RED = 3

    point = collections.namedtuple("Point", "x y")
    for value, plain in [
        (MyInt(3), 3), (Text("ab"), "ab"), (Items(k=1), {"k": 1}), (Color.RED, 3), (point(1, 2), (1, 2)),
        (collections.defaultdict(int, a=2), {"a": 2}), (collections.Counter("aab"), {"a": 2, "b": 1}),
        (collections.OrderedDict(x=[Text("t")]), {"x": ["t"]}), ({MyInt(1): point(1, 2)}, {1: (1, 2)}),
    ]:
        back = decode(json.loads(json.dumps(encode(value))))
        assert back == plain and type(back) is type(plain), (value, back)


def test_strict_equality():
    assert values_equal(3, 3) and values_equal(2.0, 2)
    assert not values_equal(True, 1) and not values_equal(1, True) and not values_equal(0, False)
    assert not values_equal("1", 1) and not values_equal(None, 0) and not values_equal([], None)
    assert not values_equal(float("nan"), float("nan"))
    assert not values_equal(0.30000000000000004, 0.3)
    assert values_equal(0.30000000000000004, 0.3, CompareSpec("float"))
    assert values_equal((1, 2), [1, 2])  # JSON expected: no tuples there, so a tuple may match
    assert not values_equal((1, 2), [1, 2], json_expected=False)  # Python literal expected: strict
    assert not values_equal([1, 2], (1, 2))
    assert not values_equal([1, 2], {1, 2}) and values_equal({2, 1}, {1, 2})
    assert not values_equal({1, 2}, frozenset({1, 2}))
    assert not values_equal({True}, {1}) and not values_equal({"1": 1}, {1: 1})
    assert not values_equal([1, [2, 3]], [1, [2, 4]])


# -- through the sandbox -------------------------------------------------------------------------
def test_bool_is_not_int_inside_set_elements_and_dict_keys():
    """Red team rtv: a tuple or frozenset inside a set or a dict key was compared with Python's
    ==, where (True, 2) == (1, 2): True != 1 held only at the top. NaN keys never equal (the
    decoder gives every NaN as one object, which a set finds by identity)."""
    assert not values_equal({(True, 2)}, {(1, 2)}) and values_equal({(1, 2)}, {(1, 2)})
    assert not values_equal({(True,): "a"}, {(1,): "a"}) and values_equal({(1.0,): "a"}, {(1,): "a"})
    assert not values_equal({frozenset({True})}, {frozenset({1})}) and values_equal({frozenset({1})}, {frozenset({1.0})})
    assert not values_equal({((1, False),)}, {((1, 0),)}) and values_equal({((1, "x"),)}, {((1, "x"),)})
    nan = decode({"$float": "nan"})
    assert not values_equal({nan}, {nan}) and not values_equal({nan: 1}, {nan: 1})


@requires_root
def test_functions_and_solution_methods(grader):
    rows = [
        row("def add(a, b):\n    return a + b\n", ADD, "add"),
        row("class Solution:\n    def add(self, a, b):\n        return a + b\n", ADD, "add"),
        row("def add(a, b):\n    return a - b\n", ADD, "add"),
        row("def add(a, b):\n    return 1 / 0\n", ADD, "add"),
        row("def add(a, b):\n    while True:\n        pass\n", ADD, "add"),
        row("def add(a, b):\n    return a +\n", ADD, "add"),
        row("def other(a, b):\n    return a + b\n", ADD, "add"),
        row("import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b\n", ADD, "add"),
        row("def add(a, b):\n    return [0] * (1 << 28)\n", ADD, "add"),
    ]
    got = [(o.status, o.case_verdicts) for o in grader.grade(rows)]
    assert got == [
        ("pass", ("AC", "AC")),
        ("pass", ("AC", "AC")),
        ("fail", ("WA", "-")),
        ("runtime_error", ("RE", "-")),
        ("timeout", ("TLE", "-")),
        ("compile_error", ("CE", "CE")),
        ("runtime_error", ("-", "-")),
        ("runtime_error", ("-", "-")),
        ("memory_limit", ("MLE", "-")),
    ], got


@requires_root
def test_an_object_claiming_equality_cannot_pass(grader):
    liar = (
        "class Anything:\n"
        "    def __eq__(self, other): return True\n"
        "    def __ne__(self, other): return False\n"
        "    def __hash__(self): return 0\n"
        "class Int(int):\n"
        "    def __eq__(self, other): return True\n"
        "def f(x):\n"
        "    return Anything() if x == 0 else Int(7)\n"
    )
    outs = grader.grade([row(liar, [{"args": [0], "output": 3}]), row(liar, [{"args": [1], "output": 3}])])
    assert outs[0].status == "runtime_error" and "not a plain value" in outs[0].error, outs[0]
    assert outs[1].status == "fail" and outs[1].reward == 0, outs[1]  # the 7 it stores, not its __eq__


@requires_root
def test_returned_types_are_compared_strictly(grader):
    rows = [
        row("def f():\n    return True\n", [{"args": [], "output": 1}]),
        row("def f():\n    return float('nan')\n", [{"args": [], "output": {"$float": "nan"}}]),
        row("def f():\n    return (1, 2)\n", [{"args": [], "output": [1, 2]}]),
        row("def f():\n    return [1, 2]\n", [{"args": [], "output": {"$tuple": [1, 2]}}]),
        row("def f():\n    return {1, 2}\n", [{"args": [], "output": {"$set": [2, 1]}}]),
        row("def f():\n    return 0.1 + 0.2\n", [{"args": [], "output": 0.3}]),
        row("def f():\n    return 0.1 + 0.2\n", [{"args": [], "output": 0.3}], compare="float"),
        row("def f():\n    return None\n", [{"args": [], "output": None}]),
    ]
    assert [o.status for o in grader.grade(rows)] == ["fail", "fail", "pass", "fail", "pass", "fail", "pass", "pass"]


@requires_root
def test_expected_values_are_not_in_the_sandbox_nor_in_any_frame(grader):
    snoop = (
        "import gc, sys\n"
        "def f(x):\n"
        "    seen = []\n"
        "    fr = sys._getframe(1)\n"
        "    while fr is not None:\n"
        "        seen += list(fr.f_locals.values())\n"
        "        fr = fr.f_back\n"
        "    for o in gc.get_objects():\n"
        "        if isinstance(o, dict):\n"
        "            seen += list(o.values())\n"
        "    for v in seen:\n"
        "        if isinstance(v, str) and v.startswith('secret-answer'):\n"
        "            return v\n"
        "    return 'not-found'\n"
    )
    o = grader.grade([row(snoop, [{"args": [1], "output": "secret-answer-41"}])])[0]
    assert o.status == "fail" and "not-found" in o.error, o
    check = build_check(Rollout(0, row(snoop, [{"args": [1], "output": "secret-answer-41"}])), OPTS)
    assert "secret-answer-41" not in json.dumps(check.payload().to_wire())


@requires_root
def test_cases_do_not_share_state(grader):
    code = "calls = []\ndef f(x):\n    calls.append(x)\n    return len(calls)\n"
    o = grader.grade([row(code, [{"args": [i], "output": 1} for i in range(3)])])[0]
    assert o.status == "pass", o  # each case runs in its own fork of the loaded module


@requires_root
def test_a_connection_the_program_opened_at_import_works_in_every_case(grader):
    """A sqlite3 connection opened at module level does not survive the fork a case runs in
    ("disk I/O error", red team rtx); the reference graders call in the process that imported
    the program. A case that raised runs once more where the program's top level ran afresh
    for it alone: the honest program passes, and cases still share nothing."""
    sqlite = ("import os, sqlite3, tempfile\n_db = sqlite3.connect(os.path.join(tempfile.mkdtemp(), 't.db'))\n"
              "_db.execute('create table t (x real)')\n"
              "def f(x):\n    _db.execute('delete from t')\n    _db.execute('insert into t values (?)', (x,))\n"
              "    (v,) = _db.execute('select x + 1 from t').fetchone()\n    return type(x)(v)\n")
    raises_on_reuse = ("calls = []\ndef f(x):\n    calls.append(x)\n    if len(calls) > 1:\n        raise ValueError(calls)\n"
                       "    return x + 1\n")
    cases = [{"args": [1], "output": 2}, {"args": [2.5], "output": 3.5}, {"args": [-3], "output": -2}]
    got = [(o.status, o.case_verdicts) for o in grader.grade([row(sqlite, cases), row(raises_on_reuse, cases)])]
    assert got == [("pass", ("AC", "AC", "AC")), ("pass", ("AC", "AC", "AC"))], got


@requires_root
def test_the_program_and_its_cases_hold_no_raw_memory_module(grader):
    """The program runs in the harness's process and each case in a fork of it: neither holds
    ctypes (red team A2), which the harness once loaded to make its process not dumpable, as
    every set-up path already has."""
    code = ("import sys\nNATIVE = ('ctypes', '_ctypes', 'cffi', '_cffi_backend')\nAT_IMPORT = [m for m in NATIVE if m in sys.modules]\n"
            "def f():\n    return AT_IMPORT + [m for m in NATIVE if m in sys.modules]\n")
    o = grader.grade([row(code, [{"args": [], "output": []}])])[0]
    assert o.status == "pass", o.error


# -- ints past int<->str's 4,300-digit limit --------------------------------------------------
# A factorial's digits: JSON text cannot be read into such an int nor written from one (json
# raises ValueError on both sides), so the row was invalid_input ("tests do not parse") and a
# returned one a runtime error in the harness: 0 for correct code. They travel as hex.
BIG = "1" + "0" * 5000  # 10**5000 as the dataset's JSON writes it


@requires_root
def test_ints_past_the_digit_limit_cross_both_ways(grader):
    rows = [
        {"completion": "def f(n):\n    return 10 ** n\n", "fn_name": "f",
         "tests": '[{"args": [5000], "output": %s}, {"args": [3], "output": 1000}]' % BIG},
        {"completion": "def f(n):\n    return [-(10 ** n), (10 ** n,)]\n", "fn_name": "f",
         "tests": '[{"args": [5000], "output": [-%s, [%s]]}]' % (BIG, BIG)},
        {"completion": "def f(n):\n    return n.bit_length()\n", "fn_name": "f",
         "tests": '[{"args": [%s], "output": %d}]' % (BIG, (10 ** 5000).bit_length())},
        {"completion": "def f(n):\n    return 10 ** n + 1\n", "fn_name": "f", "tests": '[{"args": [5000], "output": %s}]' % BIG},
    ]
    right, nested, argument, wrong = grader.grade(rows)
    for o in (right, nested, argument):
        assert o.status == "pass", (o.status, o.error[:300])
    assert wrong.status == "fail" and "wrong answer" in wrong.error, (wrong.status, wrong.error[:300])


@requires_root
def test_python_valued_cases_carry_ints_past_the_digit_limit_tuples_and_sets(grader):
    """Rows given as Python values (the API, a Parquet row), not JSON text: an argument past
    4,300 digits was a grader error (json.dumps of the request raised: sandbox_error, null
    reward), a set argument likewise and a tuple arrived as a list; now they are encoded like a return
    value and arrive as what they are. An argument that is not a plain value is the row's fault."""
    big = 10 ** 5000
    rows = [
        {"completion": "def f(n):\n    return n % 1000 + n.bit_length()\n", "fn_name": "f",
         "tests": [{"args": [big], "output": big.bit_length()}]},
        {"completion": "def f(n):\n    return n\n", "fn_name": "f", "tests": {"inputs": [[big]], "outputs": [big], "fn_name": "f"}},
        {"completion": "def f(*a, **k):\n    return [type(v).__name__ for v in a] + [k['z'] % 7]\n", "fn_name": "f",
         "tests": [{"args": [(1, 2), {3}, frozenset()], "kwargs": {"z": big}, "output": ["tuple", "set", "frozenset", big % 7]}]},
        {"completion": "def f(n):\n    return n + 1\n", "fn_name": "f", "tests": [{"args": [big], "output": big}]},
        {"completion": "def f(n):\n    return 1\n", "fn_name": "f", "tests": [{"args": [object()], "output": 1}]},
    ]
    *right, wrong, unplain = grader.grade(rows)
    for o in right:
        assert o.status == "pass", (o.status, o.error[:300])
    assert wrong.status == "fail" and "wrong answer" in wrong.error, (wrong.status, wrong.error[:300])
    assert unplain.status == "invalid_input" and "args: holds a builtins.object, not a plain value" in unplain.error, unplain


def test_a_wide_int_is_tagged_hex_and_a_forged_tag_is_malformed():
    assert encode(10 ** 5000) == {"$int": format(10 ** 5000, "x")}
    assert decode(json.loads(json.dumps(encode(-(10 ** 5000))))) == -(10 ** 5000)
    assert encode(2 ** 100) == 2 ** 100  # JSON holds it as it is
    for bad in ({"$int": "ff"}, {"$int": "0x" + "f" * 4000}, {"$int": ""}, {"$int": "-"}, {"$int": 12}, {"$int": "g" * 4000}):
        with pytest.raises(MalformedValue):
            decode(bad)


@requires_root
def test_the_stdlibs_exact_numbers_equal_as_python_says(grader):
    """A Fraction or Decimal answer (exact types) crosses tagged and is compared with Python's
    own == (rty's HONEST G: they were 'not a plain value', runtime_error 0 for right code):
    Fraction(2) == 2 and Decimal('1.5') == 1.5 hold, Decimal('0.1') == 0.1 does not (exact,
    as for floats), a NaN or a signalling NaN never equals, and a subclass stays not plain."""
    fraction, decimal = "from fractions import Fraction\n\n\n", "from decimal import Decimal\n\n\n"
    rows = [
        row(fraction + "def f(x):\n    return Fraction(x + 1)\n", [{"args": [1], "output": 2}]),
        row(decimal + "def f(x):\n    return Decimal(x) + Decimal('0.5')\n", [{"args": [1], "output": 1.5}]),
        row(fraction + "def f(x):\n    return [Fraction(x, 2), (Fraction(-3, 4),)]\n", [{"args": [3], "output": [1.5, [-0.75]]}]),
        row(decimal + "def f(x):\n    return Decimal('0.1')\n", [{"args": [1], "output": 0.1}]),
        row(fraction + "def f(x):\n    return Fraction(1, 3)\n", [{"args": [1], "output": 0.3333333333333333}]),
        row(decimal + "def f(x):\n    return Decimal('sNaN')\n", [{"args": [1], "output": 1}]),
        row(decimal + "def f(x):\n    return Decimal('NaN')\n", [{"args": [1], "output": 1}]),
        row(fraction + "class F(Fraction):\n    pass\n\n\ndef f(x):\n    return F(2)\n", [{"args": [1], "output": 2}]),
    ]
    *right, tenth, third, snan, nan, subclass = grader.grade(rows)
    for o in right:
        assert o.status == "pass", (o.status, o.error[:300])
    for o in (tenth, third, snan, nan):
        assert o.status == "fail" and "wrong answer" in o.error, (o.status, o.error[:300])
    assert subclass.status == "runtime_error" and "not a plain value" in subclass.error, (subclass.status, subclass.error)


def test_fraction_and_decimal_tags_round_trip_and_forged_ones_are_malformed():
    from decimal import Decimal
    from fractions import Fraction

    for v in (Fraction(-7, 3), Fraction(10 ** 5000, 3), Decimal("-1.50"), Decimal("1e-999999"), Decimal("Infinity")):
        back = decode(json.loads(json.dumps(encode(v))))
        assert type(back) is type(v) and back == v and (type(v) is Fraction or back.as_tuple() == v.as_tuple())
    assert values_equal(Fraction(3, 2), 1.5) and not values_equal(Fraction(3, 2), 2) and not values_equal(Fraction(1), True)
    assert values_equal(Decimal("0.1"), 0.1, CompareSpec(mode="float")) and not values_equal(Decimal("0.1"), 0.1)
    for bad in ({"$fraction": [1, 0]}, {"$fraction": [1, -2]}, {"$fraction": [1.5, 2]}, {"$fraction": [1]}, {"$fraction": "1/2"},
                {"$decimal": 1.5}, {"$decimal": "one"}):
        with pytest.raises(MalformedValue):
            decode(bad)


@requires_root
def test_apps_layout_unwraps_its_one_element_lists(grader):
    apps = {"inputs": [[[3, 1, 2]], [[5]]], "outputs": [[[1, 2, 3]], [[5]]], "fn_name": "srt"}
    code = "def srt(xs):\n    return sorted(xs)\n"
    outs = grader.grade([{"completion": code, "tests": json.dumps(apps)},
                         {"completion": "def srt(xs):\n    return xs\n", "tests": json.dumps(apps)}])
    assert [o.status for o in outs] == ["pass", "fail"]


# -- LeetCode ----------------------------------------------------------------------------------------
LEET = {"functional": "def check(candidate):\n    assert candidate(nums = [2,7,11,15], target = 9) == [0,1]\n"
                      "    assert candidate(nums = [3,3], target = 6) == [0,1]\n\n\ncheck(Solution().twoSum)"}
REF = ("class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
       "        seen = {}\n        for i, x in enumerate(nums):\n            if target - x in seen:\n"
       "                return [seen[target - x], i]\n            seen[x] = i\n")


def test_leetcode_asserts_become_call_cases():
    cs = leetcode_cases(LEET)
    assert cs is not None and cs.kind == "call" and cs.fn_name == "twoSum" and not cs.json_expected
    assert cs.inputs[0] == {"args": [], "kwargs": {"nums": [2, 7, 11, 15], "target": 9}}
    assert leetcode_cases({"functional": "def check(candidate):\n    assert abs(candidate(1) - 2) < 1e-6\n\ncheck(Solution().f)"}) is None
    check = build_check(Rollout(0, {"completion": REF, "tests": LEET}), CheckOptions(preset="leetcode"))
    assert check.style == "call" and "[0, 1]" not in json.dumps(check.payload().to_wire()) and "0,1" not in json.dumps(check.payload().to_wire())


@requires_root
def test_leetcode_preset_reference_passes_and_stub_fails():
    stub = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        pass\n"
    nonliteral = {"functional": "def check(candidate):\n    assert sorted(candidate([3,3], 6)) == [0,1]\n\ncheck(Solution().twoSum)"}
    opts = CheckOptions(preset="leetcode", limits=Limits(cpu_s=4.0))
    with Grader(ScoreOptions(checks=opts, concurrency=2)) as g:
        outs = g.grade([{"completion": REF, "tests": LEET}, {"completion": stub, "tests": LEET},
                        {"completion": REF, "tests": nonliteral}, {"completion": stub, "tests": nonliteral}])
    assert [o.status for o in outs] == ["pass", "fail", "pass", "runtime_error"]
