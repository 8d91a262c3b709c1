"""Equality that a candidate's object cannot bend.

Test code is rewritten (AST, inside the sandbox, before any candidate code runs) so that every
comparison and arithmetic operation inside an `assert` goes through harness-owned functions:

    assert f(x) == 3            ->  assert __rlvr_cmp__(0, f(x), 3)
    assert abs(f(x) - 2.5) < e  ->  assert __rlvr_cmp__(2, __rlvr_abs__(__rlvr_op__(1, f(x), 2.5)), e)

The rule: when one side of a comparison is a *plain value* (None, bool, int, float, complex, str,
bytes, and list/tuple/dict/set/frozenset of plain values, recursively), the other side must be
plain too; a heap subclass of a builtin is first reduced to its stored builtin value with the
*base type's* unbound methods (`int.__index__`, `str.__str__`, `list.copy`, `dict.items` ...), so
a subclass that overrides `__eq__` is judged by what it holds, and an honest namedtuple or Counter
still compares equal. An object that is neither plain nor C-defined (a class from the candidate)
never equals a plain value, whatever its `__eq__`, `__sub__`, `__abs__` or `__lt__` claim.
Comparisons where neither side is plain (a candidate class against a candidate class, as in
ClassEval) keep Python's ordinary semantics.

Floats: two numbers where either is a float are equal when `a == b` or
`math.isclose(a, b, rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL)`. The tolerance only ever turns
a would-be failure into a pass for values within ~1e-9 relative (last-digit rounding noise from a
different but correct summation order); it never fails what exact `==` passes.

Every helper is built by `make_namespace()` as closures over references captured when the
harness is imported, i.e. before the candidate can patch `builtins`, `math` or this module.
"""

from __future__ import annotations

import ast
import builtins as _builtins_mod
import math as _math
import operator as _operator
from typing import Any, Callable

from rlvr_grade.harness.splitting import is_literal

FLOAT_REL_TOL = 1e-9
FLOAT_ABS_TOL = 1e-12
CMP = "__rlvr_cmp__"
OP = "__rlvr_op__"
ABS = "__rlvr_abs__"
CHAIN = "__rlvr_chain__"
TRUTH = "__rlvr_truth__"
ASSERT = "__rlvr_assert__"

_CMP_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn)
_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
CMP_NAMES = ("==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in")
BIN_NAMES = ("+", "-", "*", "/", "//", "%", "**")

# Captured at import (the zygote imports the harness before any check exists).
_PRISTINE_BUILTINS: dict[str, Any] = dict(_builtins_mod.__dict__)


def pristine_builtins() -> dict[str, Any]:
    """A fresh copy of the builtins as they were before any candidate ran."""
    return dict(_PRISTINE_BUILTINS)


_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _located(new: ast.AST, src: ast.AST) -> ast.AST:
    """Give `new` and every node made with it `src`'s position, down to the nodes that already
    have one (the original operands). What ast.fix_missing_locations would give them, without
    walking the whole tree: a HumanEval+ test is ~20k nodes, and that walk was a third of the
    time it took to prepare one."""
    where = [getattr(src, a, None) for a in _LOCATION]
    stack = [new]
    while stack:
        node = stack.pop()
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is not None:
                continue
            for attr, value in zip(_LOCATION, where, strict=True):
                setattr(node, attr, value)
        stack.extend(ast.iter_child_nodes(node))
    return new


class StrictRewriter(ast.NodeTransformer):
    """Rewrite comparisons and arithmetic inside `assert` statements into harness calls."""

    def __init__(self) -> None:
        self.in_assert = 0
        self.handled = 0  # inside a `try` (or `with ...raises(...)`) of the test that handles a failed assert

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return node

    def _visit_container(self, node: ast.AST) -> ast.AST:
        return node if is_literal(node) else self.generic_visit(node)

    visit_List = visit_Tuple = visit_Set = visit_Dict = _visit_container

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        self.in_assert += 1
        test = _truth(self.visit(node.test))
        self.in_assert -= 1
        # Every failed assert of the tests is logged where it fails (see failure_log), before
        # it raises: whoever catches the AssertionError later (the candidate calling back into
        # the tests, a thread, a helper's caller) cannot make it not have happened. An assert
        # the tests themselves guard with `try/except AssertionError` is marked handled.
        args = [ast.Constant(node.lineno), test] + ([ast.Constant(True)] if self.handled else [])
        node.test = _located(ast.Call(func=ast.Name(id=ASSERT, ctx=ast.Load()), args=args, keywords=[]), node)
        if node.msg is not None:
            node.msg = self.visit(node.msg)
        return node

    def visit_Try(self, node: ast.Try) -> ast.AST:
        catches = any(_catches_assertion(h.type) for h in node.handlers)
        self.handled += catches
        node.body = [self.visit(s) for s in node.body]
        self.handled -= catches
        for field in ("handlers", "orelse", "finalbody"):
            setattr(node, field, [self.visit(s) for s in getattr(node, field)])
        return node

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def visit_With(self, node: ast.With) -> ast.AST:
        raises = any(_is_raises(item.context_expr) for item in node.items)
        self.handled += raises
        self.generic_visit(node)
        self.handled -= raises
        return node

    visit_AsyncWith = visit_With  # type: ignore[assignment]

    # Lambdas and comprehensions inside an assert still belong to the assert's expression.
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if not self.in_assert or not all(isinstance(op, _CMP_OPS) for op in node.ops):
            return node
        idxs = [_CMP_OPS.index(type(op)) for op in node.ops]
        if len(idxs) == 1:
            args = [ast.Constant(idxs[0]), node.left, node.comparators[0]]
            new = ast.Call(func=ast.Name(id=CMP, ctx=ast.Load()), args=args, keywords=[])
        else:
            # a < b < c: each operand evaluated once and lazily, as Python does (short-circuit).
            thunks = [ast.Lambda(args=_no_args(), body=c) for c in node.comparators]
            args = [ast.Tuple(elts=[ast.Constant(i) for i in idxs], ctx=ast.Load()), node.left, *thunks]
            new = ast.Call(func=ast.Name(id=CHAIN, ctx=ast.Load()), args=args, keywords=[])
        return _located(new, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not self.in_assert or not isinstance(node.op, _BIN_OPS):
            return node
        idx = _BIN_OPS.index(type(node.op))
        new = ast.Call(func=ast.Name(id=OP, ctx=ast.Load()), args=[ast.Constant(idx), node.left, node.right], keywords=[])
        return _located(new, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            self.in_assert
            and isinstance(node.func, ast.Name)
            and node.func.id == "abs"
            and len(node.args) == 1
            and not node.keywords
        ):
            new = ast.Call(func=ast.Name(id=ABS, ctx=ast.Load()), args=node.args, keywords=[])
            return _located(new, node)
        return node


_CATCH_ALL = ("AssertionError", "Exception", "BaseException")


def _catches_assertion(kind: ast.expr | None) -> bool:
    """An `except` clause that would catch a failed assert (bare, or naming one of _CATCH_ALL)."""
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any((n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")) in _CATCH_ALL for n in names)


def _is_raises(expr: ast.expr) -> bool:
    """`pytest.raises(...)`, `self.assertRaises(...)` and the like, as a context manager."""
    func = expr.func if isinstance(expr, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return "raises" in name.lower()


def _truth(node: ast.expr) -> ast.expr:
    """Where an assert relies on truthiness (`assert f(x)`, `assert not f(x)`, and/or), the
    value's truth goes through __rlvr_truth__: a candidate object's __bool__ does not decide."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node.operand = _truth(node.operand)
        return node
    if isinstance(node, ast.BoolOp):
        node.values = [_truth(v) for v in node.values]
        return node
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (CMP, CHAIN):
        return node  # already a harness-made bool
    if isinstance(node, ast.Constant):
        return node
    return _located(ast.Call(func=ast.Name(id=TRUTH, ctx=ast.Load()), args=[node], keywords=[]), node)


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def rewrite(tree: ast.AST) -> ast.AST:
    """Rewrite `tree` in place (and return it) so its asserts use the strict helpers."""
    return StrictRewriter().visit(tree)  # every node it makes is _located


SOFT = "__rlvr_soft__"


class SoftAsserts(ast.NodeTransformer):
    """Inside a test function called at the top level of the tests (HumanEval's `check`),
    `assert cond` becomes `__rlvr_soft__(line, lambda: cond)`: while that top-level call runs,
    each of its own asserts gets a verdict of its own and the function goes on. Run after
    `rewrite` (the `__rlvr_assert__` wrapper is taken off: the soft helper logs instead).
    Nested functions, classes and lambdas are left alone: their asserts raise."""

    def __init__(self) -> None:
        self.depth = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.depth += 1
        if self.depth == 1:
            self.generic_visit(node)
        self.depth -= 1
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        test = node.test
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == ASSERT and len(test.args) == 2:
            test = test.args[1]
        else:
            return node  # handled by the tests themselves (see StrictRewriter.visit_Assert): a plain assert
        call = ast.Call(
            func=ast.Name(id=SOFT, ctx=ast.Load()),
            args=[ast.Constant(node.lineno), ast.Lambda(args=_no_args(), body=test)],
            keywords=[],
        )
        return _located(ast.Expr(value=call), node)


def failure_log() -> Callable[[tuple[Any, ...]], Any]:
    """The log of every failure of the tests in this check, as `send(request)`:

        ("fail", kind, line, outcome, message)  append one (kind: "soft", "hard", "unittest")
        ("mark",)                               -> how many there are
        ("since", n)                            -> those after the first n, as a tuple
        ("active", lines)                       the assert lines whose failures are soft now
        ("is_active", line)                     -> whether `line` is one of them

    Append-only by construction: the entries live in a generator's frame (reached only
    through `gi_frame`, which the guard refuses to candidate code), and no request removes
    one, so whoever holds `send` can add a failure or read them, never take one back."""
    import _thread

    lock = _thread.allocate_lock()
    _tuple, _len, _frozenset = tuple, len, frozenset

    def keeper() -> Any:
        entries: list[tuple[Any, ...]] = []
        active: Any = _frozenset()
        answer: Any = None
        while True:
            req = yield answer
            answer = None
            op = req[0]
            if op == "fail":
                entries.append(_tuple(req[1:5]))
            elif op == "mark":
                answer = _len(entries)
            elif op == "since":
                answer = _tuple(entries[req[1]:])
            elif op == "active":
                active = _frozenset(req[1])
            elif op == "is_active":
                answer = req[1] in active

    gen = keeper()
    gen.send(None)
    resume = gen.send
    acquire, release = lock.acquire, lock.release

    def send(req: tuple[Any, ...]) -> Any:
        acquire()
        try:
            return resume(req)
        finally:
            release()

    return send


class StrictMismatch(AssertionError):
    """Raised when arithmetic mixes a plain number with an object that only pretends to be one."""


def make_namespace(log: Callable[[tuple[Any, ...]], Any] | None = None) -> dict[str, Any]:
    """The helper functions the rewritten asserts call, closed over pristine references;
    failures go to `log` (a failure_log; a fresh one when None).

    Call it before any candidate code runs: every builtin, module function and constant the
    helpers use is looked up here, once, and held in their closures, so a candidate that
    later patches `math.isclose`, `builtins.all` or this module's globals changes nothing the
    helpers see (tests/hacks/patch_math_isclose.py, patch_builtins_all.py)."""
    rel_tol, abs_tol, mismatch, type_error = FLOAT_REL_TOL, FLOAT_ABS_TOL, StrictMismatch, TypeError
    log = log or failure_log()
    _repr, _str, _exception, _assertion_error = repr, str, Exception, AssertionError
    _type = type
    _isinstance = isinstance
    _len = len
    _zip = zip
    _all = all
    _bool = bool
    _id = id
    _isclose = _math.isclose
    _isnan = _math.isnan
    _heap_flag = 1 << 9  # Py_TPFLAGS_HEAPTYPE: set for every class defined in Python code
    _immutable_flag = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE (3.10+): never set by a class statement
    _int, _float, _complex, _str, _bytes = int, float, complex, str, bytes
    _list, _tuple, _dict, _set, _frozenset, _NoneType, _boolt = list, tuple, dict, set, frozenset, type(None), bool
    _bytearray = bytearray
    scalar_types = (_NoneType, _boolt, _int, _float, _complex, _str, _bytes)
    plain_types = frozenset(scalar_types + (_list, _tuple, _dict, _set, _frozenset))
    number_types = frozenset((_boolt, _int, _float))
    int_index = int.__index__
    float_float = float.__float__
    complex_new = complex
    str_str = str.__str__
    bytes_new = bytes
    list_copy = list.copy
    tuple_iter = tuple.__iter__
    dict_items = dict.items
    set_iter = set.__iter__
    frozenset_iter = frozenset.__iter__
    issub = issubclass
    cmp_ops = (
        _operator.eq, _operator.ne, _operator.lt, _operator.le, _operator.gt, _operator.ge,
        _operator.is_, _operator.is_not, _operator.contains, None,
    )
    bin_ops = (_operator.add, _operator.sub, _operator.mul, _operator.truediv, _operator.floordiv, _operator.mod, _operator.pow)
    real_abs = abs

    def is_heap(t: type) -> bool:
        """True for classes a candidate can write: heap types that are not immutable. C types
        made with PyType_FromSpec (re.Match, array.array) are heap types too, but immutable."""
        flags = t.__flags__
        return _bool(flags & _heap_flag) and not (flags & _immutable_flag)

    def reduce(x: Any, depth: int = 0) -> Any:
        """A heap subclass of a builtin -> its stored builtin value (recursively for containers)."""
        t = _type(x)
        if depth > 200:
            return x
        if t in plain_types:
            if t is _list:
                return [reduce(v, depth + 1) for v in x] if not _all(_type(v) in scalar_types for v in x) else x
            if t is _tuple:
                return _tuple(reduce(v, depth + 1) for v in x) if not _all(_type(v) in scalar_types for v in x) else x
            if t is _dict:
                return {reduce(k, depth + 1): reduce(v, depth + 1) for k, v in dict_items(x)}
            return x
        if not is_heap(t):
            return x  # C-defined (numpy scalars, datetime, Decimal ...): the candidate cannot define these
        # A Python class: reduce through the builtin it derives from, ignoring its overrides.
        if issub(t, _boolt):
            return _bool(int_index(x))
        if issub(t, _int):
            return int_index(x)
        if issub(t, _float):
            return float_float(x)
        if issub(t, _complex):
            return complex_new(x.real, x.imag) if _type(x.real) is _float and _type(x.imag) is _float else x
        if issub(t, _str):
            return str_str(x)
        if issub(t, _bytes):
            return bytes_new(x) if not is_heap(_type(x)) else x
        if issub(t, _list):
            return [reduce(v, depth + 1) for v in list_copy(x)]
        if issub(t, _tuple):
            return _tuple(reduce(v, depth + 1) for v in tuple_iter(x))
        if issub(t, _dict):
            return {reduce(k, depth + 1): reduce(v, depth + 1) for k, v in dict_items(x)}
        if issub(t, _frozenset):
            return _frozenset(reduce(v, depth + 1) for v in frozenset_iter(x))
        if issub(t, _set):
            return {reduce(v, depth + 1) for v in set_iter(x)}
        return x

    def plain(x: Any, depth: int = 0) -> bool:
        """Exactly builtin, all the way down (after reduce)."""
        t = _type(x)
        if t not in plain_types or depth > 200:
            return False
        if t is _list or t is _tuple or t is _set or t is _frozenset:
            return _all(plain(v, depth + 1) for v in x)
        if t is _dict:
            return _all(plain(k, depth + 1) and plain(v, depth + 1) for k, v in dict_items(x))
        return True

    def trusted(x: Any) -> bool:
        """Plain, or an instance of a C-defined type (cannot carry candidate-written methods)."""
        return plain(x) or not is_heap(_type(x))

    def num_eq(a: Any, b: Any) -> bool:
        if a == b:
            return True
        if _type(a) is _float or _type(b) is _float:
            try:
                return _isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
            except type_error:
                return False
        return False

    def plain_eq(a: Any, b: Any, depth: int = 0) -> bool:
        """Equality of two plain values, Python semantics plus the float tolerance."""
        ta, tb = _type(a), _type(b)
        if ta in number_types and tb in number_types:
            return num_eq(a, b)
        if ta is _complex or tb is _complex:
            return a == b
        if (ta is _list and tb is _list) or (ta is _tuple and tb is _tuple):
            return _len(a) == _len(b) and _all(plain_eq(x, y, depth + 1) for x, y in _zip(a, b))
        if ta is _dict and tb is _dict:
            if _len(a) != _len(b):
                return False
            for k, v in dict_items(a):
                if k not in b:
                    return False
                if not plain_eq(v, b[k], depth + 1):
                    return False
            return True
        return _bool(a == b)  # str, bytes, None, sets, mismatched containers: builtin semantics

    def strict_eq(a: Any, b: Any) -> bool:
        a, b = reduce(a), reduce(b)
        pa, pb = plain(a), plain(b)
        if pa and pb:
            return plain_eq(a, b)
        if pa or pb:
            other = b if pa else a
            if mixed_container(a, b):
                return mixed_eq(a, b)
            if _type(other) not in plain_types and not is_heap(_type(other)):
                # e.g. numpy.int64 vs int: both sides C-defined, the result is not candidate-made
                r = a == b
                return _bool(r) if not is_heap(_type(r)) else False
            return False  # a candidate object claiming equality with a plain value
        return _bool(a == b)  # neither side plain: ordinary semantics (custom vs custom)

    def mixed_container(a: Any, b: Any) -> bool:
        ta, tb = _type(a), _type(b)
        return ta is tb and ta in (_list, _tuple, _dict)

    def mixed_eq(a: Any, b: Any) -> bool:
        """Containers holding custom objects: compare element by element with strict_eq."""
        if _type(a) is _dict:
            if _len(a) != _len(b):
                return False
            for k, v in dict_items(a):
                if k not in b or not strict_eq(v, b[k]):
                    return False
            return True
        return _len(a) == _len(b) and _all(strict_eq(x, y) for x, y in _zip(a, b))

    def order(op: Any, a: Any, b: Any) -> bool:
        a, b = reduce(a), reduce(b)
        pa, pb = plain(a), plain(b)
        if (pa or pb) and not (trusted(a) and trusted(b)):
            return False  # `__lt__` of a candidate object against a plain bound proves nothing
        r = op(a, b)
        return _bool(r) if not is_heap(_type(r)) else False

    def cmp(idx: int, a: Any, b: Any) -> Any:
        if idx == 0:
            return strict_eq(a, b)
        if idx == 1:
            return not strict_eq(a, b)
        if idx in (2, 3, 4, 5):
            return order(cmp_ops[idx], a, b)
        if idx == 6:
            return a is b
        if idx == 7:
            return a is not b
        # membership: `x in plain_container` checks with strict equality, element by element
        container = reduce(b)
        ct = _type(container)
        if is_heap(ct):
            return False  # a candidate container answering `in` / `not in` proves nothing
        if plain(container) or ct in plain_types:
            if ct is _dict:
                found = any_strict(a, _list(container))
            elif ct is _str or ct is _bytes:
                ra = reduce(a)
                found = _type(ra) is ct and ra in container
            else:
                found = any_strict(a, container)
        else:
            found = _bool(a in container)
        return found if idx == 8 else not found

    def any_strict(a: Any, items: Any) -> bool:
        for item in items:
            if strict_eq(a, item):
                return True
        return False

    def op(idx: int, a: Any, b: Any) -> Any:
        ra, rb = reduce(a), reduce(b)
        num_a = _type(ra) in number_types or _type(ra) is _complex
        num_b = _type(rb) in number_types or _type(rb) is _complex
        if (num_a and not trusted(rb)) or (num_b and not trusted(ra)):
            msg = f"arithmetic between a number and a {_type(b if num_a else a).__name__} object is not trusted"
            log(("fail", "hard", 0, "failed", msg))
            raise mismatch(msg)
        if trusted(ra) and trusted(rb):
            return bin_ops[idx](ra, rb)
        return bin_ops[idx](a, b)

    def strict_abs(x: Any) -> Any:
        # The pristine abs() on the stored value: a patched builtins.abs or a shadowing global
        # `abs` cannot answer for the test; a custom class keeps its own __abs__ (a vector norm).
        return real_abs(reduce(x))

    def chain(idxs: tuple, left: Any, *thunks: Any) -> bool:
        for i, thunk in _zip(idxs, thunks):
            right = thunk()
            if not cmp(i, left, right):
                return False
            left = right
        return True

    def truth(x: Any) -> bool:
        if _type(x) is _boolt:
            return x
        rx = reduce(x)
        if trusted(rx):
            return _bool(rx)
        msg = f"the truth value of a {_type(x).__name__} object is not trusted"
        log(("fail", "hard", 0, "failed", msg))
        raise mismatch(msg)

    def check(line: int, ok: bool, handled: bool = False) -> bool:
        """An assert's verdict (`ok` is a harness-made bool): a failure is logged first."""
        if not ok and not handled:
            log(("fail", "hard", line, "failed", f"AssertionError (line {line})"))
        return ok

    def describe(exc: BaseException) -> str:
        try:
            text = _str(exc)
        except _exception:  # noqa: BLE001 - a hostile __str__
            text = ""
        name = _type(exc).__name__
        return (f"{name}: {text}" if text else name)[:500]

    def soft(line: int, cond: Any) -> None:
        """An assert of a top-level test function: while the top-level call of that function
        runs (the line is active), a failure is logged as this line's verdict and the function
        goes on; called any other way, it is logged and raises like any assert."""
        try:
            ok = cond()
        except _assertion_error as exc:
            ok, outcome, msg, err = False, "failed", describe(exc), exc
        except _exception as exc:  # noqa: BLE001 - the candidate crashed on this input
            ok, outcome, msg, err = False, "error", describe(exc), exc
        else:
            outcome, msg, err = "failed", f"AssertionError (line {line})", None
        if ok:
            return
        if log(("is_active", line)):
            log(("fail", "soft", line, outcome, msg))
            return
        log(("fail", "hard", line, outcome, msg))
        if err is not None:
            raise err
        raise _assertion_error(msg)

    return {TRUTH: truth, CHAIN: chain, CMP: cmp, OP: op, ABS: strict_abs, ASSERT: check, SOFT: soft,
            "__rlvr_strict_eq__": strict_eq}
