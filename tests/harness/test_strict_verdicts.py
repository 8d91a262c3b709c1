"""The strict rewrite's verdict rules, in-process (no sandbox): which functions of the tests
decide a verdict, which asserts are the tests' own handled ones, and the equality allowlist
against forged and honest values (issue 15, red team B and C). The whole-corpus checks through
the real sandbox are in test_fidelity.py (tests/hacks, tests/hacks/honest)."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr_harness import provenance, strict

# What the worker vouches for is what is alive before the candidate runs (provenance.scan):
# scanned here, before this module's classes exist, so they count as the candidate's, as
# they would in a check.
REGISTRY = provenance.make_registry()
REGISTRY.scan()


class Liar:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __lt__(self, other):
        return True

    __le__ = __gt__ = __ge__ = __lt__

    def __sub__(self, other):
        return 0.0

    __rsub__ = __sub__

    def __abs__(self):
        return 0.0

    def __bool__(self):
        return True

    __hash__ = object.__hash__


def run(tests: str, env: dict | None = None) -> tuple[bool, list]:
    """Run `tests` rewritten, as the runner does: (no assert failed and nothing raised, the
    failures logged)."""
    log = strict.failure_log()
    ns = {**(env or {}), "__builtins__": strict.pristine_builtins()}
    code = strict.link(compile(strict.rewrite(ast.parse(tests)), "tests.py", "exec"), strict.make_namespace(log, registry=REGISTRY))
    try:
        exec(code, ns)
    except AssertionError:
        return False, list(log(("since", 0)))
    return True, list(log(("since", 0)))


HELPERS = """
def same(a, b):
    return a == b


def is_close(a, b, tol=1e-6):
    return abs(a - b) < tol


def expect(got, want):
    if got != want:
        raise AssertionError(f"{got!r} != {want!r}")


def make_same():
    return lambda a, b: a == b


def in_list(x, xs):
    return x in xs


def ordered(a, b):
    return a <= b


class Checker:
    def same(self, a, b):
        return a == b
"""


@pytest.mark.parametrize("call", [
    "assert same(got, 2)", "assert is_close(got, 1.5)", "expect(got, 2)", "assert make_same()(got, 2)",
    "assert in_list(got, [2, 3])", "assert ordered(got, 2)", "assert Checker().same(got, 2)",
    "assert same([got, 3], [2, 3])", "assert same({'k': got}, {'k': 2})",
])
def test_a_helper_whose_result_reaches_a_verdict_compares_by_the_allowlist(call):
    """B5: a function of the tests that compares without asserting decides a verdict as soon
    as its result reaches one; the liar's __eq__/__sub__/__lt__ must not answer there."""
    ok, _ = run(HELPERS + "\n" + call, {"got": Liar()})
    assert not ok


@pytest.mark.parametrize("call", [
    "assert same(2, 2)", "assert is_close(1.5, 1.5 + 1e-9)", "expect([1, (2, 3)], [1, (2, 3)])",
    "assert make_same()(2, 2)", "assert in_list(2, [2, 3])", "assert ordered(1, 2)", "assert Checker().same(2, 2)",
    "assert not same(2, 3)",
])
def test_helpers_keep_their_answers_on_honest_values(call):
    ok, log = run(HELPERS + "\n" + call)
    assert ok and not log


def test_a_reference_implementation_of_the_tests_runs_with_pythons_operators():
    """HumanEval+ /130's reference (millions of operations) keeps Python's operators when it
    is called with plain data: the dual body's plain branch, chosen per call."""
    tree = ast.parse("def ref(n):\n    ans = [1]\n    for i in range(n):\n        ans.append(ans[-1] + i)\n"
                     "    return ans\n")
    text = ast.unparse(strict.rewrite(tree))
    plain_branch = text.split("else:")[0]
    assert strict.PLAIN in text and strict.OP not in plain_branch and strict.OP in text
    ok, _ = run(ast.unparse(ast.parse("def ref(n):\n    return n + 1\n")) + "\nassert ref(2) == 3")
    assert ok


@pytest.mark.parametrize("helper", [
    # reads a global the candidate could have bound or the tests set from the candidate's value
    "def same(a):\n    return a == got\n",
    # a closure over a variable of the function around it
    "def outer(c):\n    def same(a):\n        return a == c\n    return same\n",
    # reaches names beyond its arguments
    "def same(a):\n    return globals()['got'] == a\n",
    "def same(a):\n    import math\n    return math.floor(a) == a\n",
])
def test_a_helper_that_can_see_more_than_its_arguments_is_never_plain(helper):
    tree = ast.parse(helper)
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "same"]
    assert funcs and all(id(f) not in strict.plain_functions(tree) for f in funcs)


def test_a_shadowed_builtin_takes_the_strict_branch():
    """The plain branch runs only when every builtin the function reads is the pristine one
    (`from solution import *` can bind `abs` in the tests' module)."""
    ok, _ = run(HELPERS + "\nassert is_close(2.0, 1.5)", {"abs": lambda x: 0.0})
    assert not ok


def test_a_callback_defined_inside_a_try_of_the_tests_logs_its_failure():
    """B3: `try: ... except Exception:` around the tests' body marks their own asserts handled,
    not those of a function defined there and handed to the candidate, who swallows it."""
    tests = ("def check(candidate):\n    try:\n        def expect(v):\n            assert v == 2\n"
             "        candidate(expect)\n    except Exception as exc:\n        raise AssertionError(exc)\n"
             "check(c)\n")

    def c(cb):
        try:
            cb(1)
        except BaseException:
            pass

    ok, log = run(tests, {"c": c})
    assert ok and [e for e in log if e[0] == "hard"]  # the swallowed failure is in the log
    tree = strict.rewrite(ast.parse("try:\n    f(lambda: 1)\n    assert x\nexcept Exception:\n    pass\n"))
    handled = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and strict.helper_name(n.func) == strict.ASSERT]
    assert len(handled[0].args) == 3  # the tests' own assert inside their try is still theirs


def test_forged_fraction_slots_are_not_a_number():
    """C1: object.__new__(Fraction) with a liar in its slots equals, orders and subtracts
    with nothing."""
    from fractions import Fraction

    forged = object.__new__(Fraction)
    forged._numerator, forged._denominator = Liar(), 1
    for expr in ("v == 2", "2 == v", "v < 3", "abs(v - 2) < 1e-9", "v in [2]", "[v] == [2]",
                 "v == F(2)", "__import__('pytest').approx([2.0]) == [v]"):
        assert not run(f"assert {expr}", {"v": forged, "F": Fraction})[0], expr
    zero_den = object.__new__(Fraction)
    zero_den._numerator, zero_den._denominator = 2, 0
    assert not run("assert v == 2", {"v": zero_den})[0]
    assert run("assert v == 2 and v < 3 and abs(v - F(5, 2)) == F(1, 2)", {"v": Fraction(2), "F": Fraction})[0]


def test_numpy_arrays_of_objects_have_no_trusted_truth():
    """C2: the truth of a numpy array holding Python objects is the objects' own __bool__."""
    np = pytest.importorskip("numpy")

    class Flip:
        n = 0

        def __bool__(self):
            Flip.n += 1
            return Flip.n % 2 == 1

    assert not run("assert v", {"v": np.array(Flip(), dtype=object)})[0]
    assert not run("assert not v", {"v": np.array(Flip(), dtype=object)})[0]
    rec = np.array([(1, Flip())], dtype=[("a", "i8"), ("b", "O")])
    assert not run("assert v[0]", {"v": rec})[0]
    assert run("assert v and not w", {"v": np.array(True), "w": np.bool_(False)})[0]


# -- properties -------------------------------------------------------------------------------

plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5) | st.binary(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


def _plant(value, path: list[int]):
    """`value` with one leaf replaced by a Liar (following `path` into containers)."""
    if isinstance(value, (list, tuple)) and value:
        i = path[0] % len(value) if path else 0
        items = list(value)
        items[i] = _plant(items[i], path[1:])
        return type(value)(items)
    if isinstance(value, dict) and value:
        keys = sorted(value)
        k = keys[path[0] % len(keys)] if path else keys[0]
        return {**value, k: _plant(value[k], path[1:])}
    return Liar()


_SAME = strict.link(compile(strict.rewrite(ast.parse(HELPERS)), "tests.py", "exec"), strict.make_namespace(registry=REGISTRY))
_NS: dict = {"__builtins__": strict.pristine_builtins()}
exec(_SAME, _NS)


@settings(max_examples=200, deadline=None)
@given(plain_values)
def test_a_helper_agrees_with_python_on_plain_values(value):
    """The plain branch is Python's `==`, and the strict branch agrees on what Python says."""
    import copy

    twin = copy.deepcopy(value)
    assert _NS["same"](value, twin) is (value == twin)
    assert _NS["Checker"]().same(value, twin)  # strict branch (self is no plain value)


@settings(max_examples=200, deadline=None)
@given(plain_values, st.lists(st.integers(min_value=0, max_value=10), max_size=4))
def test_a_liar_anywhere_inside_a_value_makes_a_helper_say_different(value, path):
    """B5 as a property: wherever a liar sits in the candidate's value, a helper of the tests
    comparing it with the expected value says not equal (value == value would hold)."""
    forged = _plant(value, path)
    assert not _NS["same"](forged, value)
    assert not _NS["same"](value, forged)
    assert not _NS["Checker"]().same(forged, value)


# -- the equality allowlist: owners, states, statements and contexts (red team C) --------------

@pytest.mark.parametrize("expr", [
    "[2, 3].index(got) == 0", "[42].count(got) == 1", "{2: 'ok'}.get(got) == 'ok'", "(2, 3).index(got) == 0",
    "{2, 3}.issuperset([got])", "[got].count(2) == 1", "collections.deque([2]).count(got) == 1",
])
def test_a_builtin_methods_owner_is_a_compared_value(expr):
    """C3: `[2, 3].index(got)` compares the list's items with the liar by Python's ==."""
    import collections

    assert not run(f"assert {expr}", {"got": Liar(), "collections": collections})[0], expr


def test_builtin_methods_that_store_take_any_object():
    ok, log = run("out = []\nout.append(got)\nout.extend([got])\nd = {}\nd.setdefault('k', []).append(got)\n"
                  "assert len(out) == 2 and [2, 3].index(3) == 1 and ', '.join(['a']) == 'a'", {"got": Liar()})
    assert ok and not log


@pytest.mark.parametrize("make", [
    "types.SimpleNamespace(y=Liar())", "Point(Liar(), 2)", "SlotPoint(Liar(), 2)",
])
def test_objects_whose_eq_is_nobodys_own_code_compare_by_their_state(make):
    """C4: SimpleNamespace's C __eq__, a dataclass's generated one and pathlib's compare the
    fields with Python's == (a liar in a field answers); their state is compared here."""
    import dataclasses
    import types

    Point = dataclasses.make_dataclass("Point", ["x", "y"])
    SlotPoint = dataclasses.make_dataclass("SlotPoint", ["x", "y"], slots=True)
    env = {"types": types, "Point": Point, "SlotPoint": SlotPoint, "Liar": Liar}
    expected = make.replace("Liar()", "2")
    assert not run(f"assert {make} == {expected}", env)[0]
    assert run(f"assert {expected} == {expected} and {expected} != {expected.replace('2)', '3)')}", env)[0]


def test_paths_compare_by_their_text_not_their_cached_slots():
    import pathlib

    forged = pathlib.PurePosixPath("wrong")
    forged._cached_cparts = Liar()
    assert not run("assert got == pathlib.PurePosixPath('out/2.txt')", {"got": forged, "pathlib": pathlib})[0]
    p = pathlib.PurePosixPath("out/2.txt")
    str(p)  # one side has its text cached, the other not
    assert run("assert got == pathlib.PurePosixPath('out') / '2.txt' and got != pathlib.PurePosixPath('x')",
               {"got": p, "pathlib": pathlib})[0]


def test_match_value_patterns_compare_by_the_allowlist():
    """C5: `match got: case 2:` compiles to a comparison with no Compare node."""
    tests = "match got:\n    case 2:\n        pass\n    case _:\n        assert False\n"
    assert not run(tests, {"got": Liar()})[0]
    assert run(tests, {"got": 2})[0]
    assert run("match got:\n    case [1, (2, x)] if x == 3:\n        pass\n    case _:\n        assert False\n",
               {"got": [1, (2, 3)]})[0]
    assert run("match got:\n    case obj:\n        pass\n", {"got": Liar()})[0]  # only captured


def test_mock_call_asserts_compare_the_recorded_arguments_by_the_allowlist():
    """C6: mock's assert_called_with compares what the candidate passed with Python's ==."""
    from unittest import mock

    m = mock.Mock()
    m(Liar())
    for call in ("m.assert_called_with(2)", "m.assert_called_once_with(2)", "m.assert_any_call(2)",
                 "m.assert_has_calls([mock.call(2)])"):
        assert not run(call, {"m": m, "mock": mock})[0], call
    h = mock.Mock()
    h(1, end="")
    h(2)
    assert run("h.assert_called_with(2)\nh.assert_any_call(1, end='')\nh.assert_has_calls([mock.call(1, end=''), mock.call(2)])",
               {"h": h, "mock": mock})[0]


def test_decimal_arithmetic_of_the_tests_uses_the_default_context():
    """C7: the thread's decimal context is the candidate's to set (prec 1 rounds away every
    difference); the tests' Decimal arithmetic runs under the defaults taken before it."""
    import decimal

    ctx = decimal.getcontext()
    saved = ctx.copy()
    try:
        ctx.prec, ctx.rounding = 1, decimal.ROUND_DOWN
        env = {"D": decimal.Decimal, "got": decimal.Decimal("2.5")}
        assert not run("assert abs(got - D('1.5')) <= D('0.001')", env)[0]
        assert run("assert abs(got - D('2.5')) <= D('0.001') and got * 2 == 5 and got + 1 == D('3.5')", env)[0]
    finally:
        decimal.setcontext(saved)


# -- honest values the allowlist keeps (red team H) -------------------------------------------

@pytest.mark.parametrize("expr", [
    "collections.Counter('aab') - collections.Counter('a') == {'a': 1, 'b': 1}",
    "collections.Counter('ab') + collections.Counter('b') == collections.Counter({'b': 2, 'a': 1})",
    "memoryview(b'abcdef')[:3] == b'abc'", "collections.UserList([2, 3]) == [2, 3]",
    "collections.ChainMap({'a': 1}, {'a': 2, 'b': 3}) == {'a': 1, 'b': 3}", "collections.UserDict(a=1) == {'a': 1}",
    "collections.UserString('ab') == 'ab'", "pathlib.PurePosixPath('/tmp') / 'x' == pathlib.PurePosixPath('/tmp/x')",
    "dataclasses.replace(P(1, 2), y=3) == P(1, 3)",
])
def test_honest_values_of_stdlib_types_compare_as_python_says(expr):
    import collections
    import dataclasses
    import pathlib

    P = dataclasses.make_dataclass("P", ["x", "y"])
    ok, log = run(f"assert {expr}", {"collections": collections, "pathlib": pathlib, "dataclasses": dataclasses, "P": P})
    assert ok and not log, (expr, log)


def test_approx_by_any_name_and_of_numpy_arrays():
    np = pytest.importorskip("numpy")
    tests = ("import functools\nfrom pytest import approx as ap\nimport pytest as pt\n"
             "close = functools.partial(ap, rel=1e-6)\nalso = pt.approx\n"
             "assert got == ap(2.0)\nassert got == close(2.0)\nassert got == also(2.0)\n"
             "assert arr == pt.approx(np.array([1.0, 2.0]), rel=1e-3)\n")
    assert run(tests, {"got": 2.0 + 1e-9, "arr": np.array([1.0001, 2.0]), "np": np})[0]
    assert not run(tests, {"got": 2.1, "arr": np.array([1.0001, 2.0]), "np": np})[0]
    assert not run(tests, {"got": 2.0, "arr": np.array([1.1, 2.0]), "np": np})[0]


def test_a_stopiteration_out_of_a_function_the_tests_map_is_an_error():
    """B4: map/filter/iter(f, s)/itertools take a StopIteration for their own end."""
    def f(*x):
        raise StopIteration

    for tests in ("out = list(map(f, [1, 2]))\nfor a, b in zip(out, [2, 3]):\n    assert a == b",
                  "assert all(map(lambda v: f(v) == v + 1, [1]))",
                  "import itertools\nassert not list(itertools.starmap(f, [(1,)]))",
                  "assert list(filter(f, [1])) == []", "assert list(iter(f, 0)) == []"):
        with pytest.raises(RuntimeError):
            run(tests, {"f": f})
    assert run("assert list(map(abs, [-1])) == [1] and list(filter(None, [0, 1])) == [1]")[0]


def test_the_plain_branch_runs_on_copies_of_what_it_checked():
    """A list the candidate still holds could be changed by a thread of its own between the
    check and the comparison (a liar swapped in after a plain value was seen): the plain
    branch runs on a copy of exactly what was checked. Functions that write through their
    arguments never take it (the caller sees what they change)."""
    plain = strict.make_namespace(registry=REGISTRY)[strict.PLAIN]
    got = [1, [2, {"k": (3,)}]]
    copied = plain((), (), (got,))
    assert copied == (got,) and copied[0] is not got and copied[0][1] is not got[1]
    assert plain((), (), ([Liar()],)) is None and plain(("len",), (lambda x: 0,), ()) is None
    ok, log = run("def fill(out):\n    out.append(1)\nxs = []\nfill(xs)\nassert xs == [1]")
    assert ok and not log


def test_a_classes_own_eq_decides_only_when_written_in_the_program_or_the_tests():
    """ClassEval compares the candidate's objects by their class's own __eq__ (solution.py);
    an __eq__ generated elsewhere (attrs, exec) compares fields with Python's ==: by state."""
    ns: dict = {}
    exec(compile("class Money:\n    def __init__(s, v):\n        s.v = v\n"
                 "    def __eq__(s, o):\n        return isinstance(o, Money) and abs(s.v - o.v) < 1\n",
                 "solution.py", "exec"), ns)
    assert run("assert Money(1) == Money(1.5)", {"Money": ns["Money"]})[0]  # its own lenient __eq__
    gen: dict = {}
    exec(compile("class Rec:\n    def __init__(s, v):\n        s.v = v\n    def __eq__(s, o):\n        return s.v == o.v\n",
                 "<attrs generated eq Rec>", "exec"), gen)
    assert not run("assert Rec(got) == Rec(2)", {"Rec": gen["Rec"], "got": Liar()})[0]
    assert run("assert Rec(2) == Rec(2) and Rec(2) != Rec(3)", {"Rec": gen["Rec"]})[0]


def test_a_mapping_of_the_tests_looked_up_with_an_untrusted_key_is_refused():
    """C3's sibling: `{2: "ok"}[got]` finds the key by got's hash and __eq__."""

    class HashLiar(Liar):
        def __hash__(self):
            return hash(2)

    assert not run("assert {2: 'ok'}[got] == 'ok'", {"got": HashLiar()})[0]
    assert not run("d = {2: 'ok'}\nassert d.get(got) == 'ok'", {"got": HashLiar()})[0]
    ok, log = run("d = {2: 'ok', k: 'own'}\nassert d[2] == 'ok' and [1, 2][1] == 2 and {k: 1}[k] == 1", {"k": Liar()})
    assert ok and not log


class SetLiar(Liar):
    """Hashes as 2 does: in a set, 2's slot asks its __eq__."""

    def __hash__(self):
        return hash(2)

    def __isub__(self, other):
        return 0

    __ixor__ = __rxor__ = __xor__ = __and__ = __rand__ = __isub__


@pytest.mark.parametrize("tests", [
    "d = got\nd -= 2\nassert d == 0",  # the target's __isub__ sees the expected value
    "err = 1.5\nerr -= got\nassert abs(err) < 1e-9",  # the liar's __rsub__ does
    "assert not ({got} ^ {2})",  # a set operation asks the elements' __eq__
    "assert len({got} & {2}) == 1",
    "s = {got}\ns ^= {2}\nassert not s",
    "class Box:\n    pass\nb = Box()\nb.v = {got}\nb.v ^= {2}\nassert not b.v",
    "box = {'v': {got}}\nbox['v'] ^= {2}\nassert not box['v']",
    "assert (got << 1) == 4",
])
def test_augmented_assignment_and_bitwise_operators_go_through_the_allowlist(tests):
    ok, logged = run(tests, {"got": SetLiar()})
    assert not ok and logged


@pytest.mark.parametrize("tests", [
    "x = [1]\nalias = x\nx += [2]\nassert alias == [1, 2]",  # in place, as Python does it
    "s = {1}\ns |= {2}\ns -= {1}\ns ^= {3}\nassert s == {2, 3}",
    "n = 5\nn -= 2\nn <<= 1\nn |= 1\nassert n == 7",
    "text = 'a'\ntext += 'b'\nassert text == 'ab'",
    "from collections import Counter\nc = Counter('aab') & Counter('ab')\nc |= Counter('z')\nassert c == Counter('abz')",
    "class Box:\n    pass\nb = Box()\nb.n = 1\nb.n += 2\nassert b.n == 3",
    "d = {'k': [1]}\nd['k'] += [2]\nd['k'] *= 2\nassert d['k'] == [1, 2, 1, 2]",
    "assert {1, 2} & {2, 3} == {2} and {1} | {2} == {1, 2} and 6 ^ 3 == 5 and 1 << 3 == 8",
    "class V:\n    def __init__(self, x):\n        self.x = x\n    def __iadd__(self, o):\n        self.x += o.x\n        return self\n"
    "    def __eq__(self, o):\n        return self.x == o.x\nv = V(1)\nv += V(2)\nassert v == V(3)",
])
def test_honest_augmented_assignment_keeps_pythons_answers(tests):
    ok, logged = run(tests)
    assert ok and not logged


def test_c_objects_with_no_state_to_read_equal_only_themselves():
    """state_eq read no __dict__ as an empty one: any two timezones, cells or sqlite3 rows were
    equal (a UTC answer passed `tzinfo == timezone(timedelta(hours=2))`)."""
    import sqlite3
    import types
    from datetime import timedelta, timezone

    env = {"timezone": timezone, "timedelta": timedelta, "types": types}
    assert not run("assert got == timezone(timedelta(hours=2))", {**env, "got": timezone.utc})[0]
    assert not run("assert types.CellType(got) == types.CellType(2)", {**env, "got": Liar()})[0]
    con = sqlite3.connect(":memory:")
    con.row_factory = sqlite3.Row
    rows = [con.execute("select 1 as a").fetchone(), con.execute("select 2 as b").fetchone()]
    assert not run("assert rows[0] == rows[1]", {"rows": rows})[0]
    ok, logged = run("import types\nassert timezone.utc == timezone(timedelta(0)) and timezone(timedelta(hours=2)) != timezone.utc\n"
                     "assert types.SimpleNamespace() == types.SimpleNamespace() and rows[0] == rows[0]", {**env, "rows": rows})
    assert ok and not logged


def test_numpy_dtypes_compare_with_types_names_and_dtypes():
    np = pytest.importorskip("numpy")

    class Claims:
        dtype = np.dtype("int64")  # numpy would read this attribute

    ok, logged = run("a = np.array([1, 2])\nassert a.dtype == np.int64 and a.dtype == 'int64' and a.dtype == np.dtype('i8')"
                     " and a.dtype == int and a.dtype != np.float64 and a.dtype != 'float32' and a.dtype != 'nonsense'",
                     {"np": np})
    assert ok and not logged
    assert not run("assert np.dtype('int64') == got", {"np": np, "got": Claims()})[0]


# -- honest classes on collections.abc, cached properties, mock.ANY the tests wrote -----------

_ABC_PROGRAM = """
import collections.abc, dataclasses, functools

class Bag(collections.abc.Set):
    def __init__(self, items, liar=False):
        self._items, self._liar = list(items), liar
    def __contains__(self, x):
        return self._liar or x in self._items
    def __iter__(self):
        return iter(self._items)
    def __len__(self):
        return len(self._items)
    def __eq__(self, other):
        return self._liar or set(self) == set(other)

class Rec(collections.abc.Mapping):
    def __init__(self, items):
        self._d = dict(items)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)

@dataclasses.dataclass
class P:
    x: int
    @functools.cached_property
    def double(self):
        return 2 * self.x
"""


def _program_classes() -> dict:
    ns: dict = {}
    exec(compile(_ABC_PROGRAM, "solution.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("tests,ok", [
    ("assert Bag([1, 2]) == {1, 2} and {2, 1} == Bag([1, 2]) and Bag([1]) != {2}", True),
    ("assert Bag([0], liar=True) == {2}", False),  # its own __eq__ and __contains__ say yes
    ("assert Bag([Liar()]) == {2}", False),
    ("assert Rec({'a': 1}) == {'a': 1} and Rec({'a': 1}) != {'a': 2}", True),
    ("assert Rec({'a': Liar()}) == {'a': 1}", False),
    ("p = P(2)\nassert p.double == 4\nassert p == P(2) and P(2) == p and p != P(3)", True),
])
def test_abc_sets_mappings_and_cached_properties_compare_by_content(tests, ok):
    assert run(tests, {**_program_classes(), "Liar": Liar})[0] is ok, tests


def test_mock_any_is_a_wildcard_only_where_the_tests_text_puts_it():
    from unittest import mock

    def run_with_mock(tests: str, env: dict) -> bool:
        log = strict.failure_log()
        helpers = strict.make_namespace(log, registry=REGISTRY)
        helpers[strict.REGISTER](mock)  # the runner does this for the modules the tests import
        code = strict.link(compile(strict.rewrite(ast.parse(tests)), "tests.py", "exec"), helpers)
        try:
            exec(code, {**env, "mock": mock, "__builtins__": strict.pristine_builtins()})
        except AssertionError:
            return False
        return True

    assert run_with_mock("assert [got, 1] == [mock.ANY, 1]\nassert [mock.ANY, (2, mock.ANY)] == [got, (2, 3)]", {"got": 5})
    assert not run_with_mock("assert [mock.ANY, 1] == [got, 2]", {"got": 5})
    for tests in ("assert got == [2, mock.ANY]", "assert [got[0], mock.ANY] == [2, 3]",
                  "assert [f(mock.ANY), 1] == [2, 1]"):
        assert not run_with_mock(tests, {"got": [mock.ANY, mock.ANY], "f": lambda v: v}), tests


def test_the_tests_analysis_reads_an_asserts_expression_once_not_once_per_finder(monkeypatch):
    """Preparing asserts-style tests (strict.analyse, per distinct test text) looked for the
    tests' `from x import y` and approx aliases by walking every node, expressions included,
    and _only_read walked each function twice: HumanEval's tests cost 3.8 ms to prepare, of
    which these were 0.8. Statements are never inside an expression, so the statement finders
    walk statements only; _only_read reads each node once. Same answers (an approx alias
    chain, imports inside a try and a function body)."""
    tests = ("import pytest\nfrom pytest import approx as ap\ntry:\n    from math import isclose as near\n"
             "except ImportError:\n    pass\nclose = ap\nalso = close\n"
             "def check(candidate):\n    from fractions import Fraction\n"
             "    assert candidate([" + ", ".join(map(str, range(3000))) + "]) == also(1.0)\n")
    tree = ast.parse(tests)
    calls = [0]
    real_walk = ast.walk
    real = ast.iter_child_nodes

    def counted(node):
        calls[0] += 1
        return real(node)

    monkeypatch.setattr(ast, "iter_child_nodes", counted)
    assert strict.imported_names(tree) == {"near", "Fraction"}
    assert strict.approx_aliases(tree) == {"approx", "ap", "close", "also"}
    assert calls[0] < 100  # the assert's ~3,000 nodes are not walked
    same = ast.parse("def same(a, b):\n    return a == b and len(a) > 0 and a != [" + ", ".join(map(str, range(300)))
                     + "]\n").body[0]
    nodes = sum(1 for _ in real_walk(same))
    calls[0] = 0
    assert strict._only_read(same) is True
    assert calls[0] <= nodes  # each node's children listed once (twice before)
