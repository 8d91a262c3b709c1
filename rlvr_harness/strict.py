"""Equality, arithmetic and truth that a candidate's object cannot bend, and asserts whose
failure nobody can take back.

Test code is rewritten (AST, inside the sandbox, before any candidate code runs) so that every
comparison and arithmetic operation in it, and the truth of every assert, go through
harness-owned functions, and every assert reports its failure before it raises:

    assert f(x) == 3            ->  assert __rlvr_assert__(1, __rlvr_cmp__(0, f(x), 3))
    d = abs(out - exp)          ->  d = __rlvr_abs__(__rlvr_op__(1, out, exp))

What decides a comparison is an allowlist (make_namespace): plain values structurally, exact
numbers, a few standard types, numpy's values and pytest.approx; an object nobody vouches for
(a class of the candidate's or the tests') never equals a trusted value and never takes part in
arithmetic with one, whatever its `__eq__`, `__sub__`, `__abs__` or `__lt__` claim; two such
objects compare by their own `__eq__` (ClassEval compares the candidate's objects).

Floats: two numbers where either is a float are equal when `a == b` or
`math.isclose(a, b, rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL)`. The tolerance only ever turns
a would-be failure into a pass for values within ~1e-9 relative (last-digit rounding noise from a
different but correct summation order); it never fails what exact `==` passes.

Every helper is built by `make_namespace()` as closures over references captured before the
candidate runs, so patching `builtins`, `math`, a standard class or this module changes nothing
they see; failures go to an append-only log (`failure_log`).
"""

from __future__ import annotations

import ast
import builtins as _builtins_mod
import math as _math
import operator as _operator
from typing import Any, Callable

from rlvr_harness.splitting import child_nodes, is_literal

FLOAT_REL_TOL = 1e-9
FLOAT_ABS_TOL = 1e-12
CMP = "__rlvr_cmp__"
OP = "__rlvr_op__"
IOP = "__rlvr_iop__"  # augmented assignment: `x op= v`, `obj.a op= v`, `obj[k] op= v`
ABS = "__rlvr_abs__"
CHAIN = "__rlvr_chain__"
TRUTH = "__rlvr_truth__"
ASSERT = "__rlvr_assert__"
APPROX = "__rlvr_approx__"
MATCH = "__rlvr_match__"
ITERATE = "__rlvr_iterate__"
ITEM = "__rlvr_item__"
CALL = "__rlvr_call__"
NAMECALL = "__rlvr_namecall__"
FENCE = "__rlvr_fence__"  # `name(...)` of the tests: a call into the program puts held state back on return
UNITTEST = "__rlvr_unittest__"
PLAIN = "__rlvr_plain__"
REGISTER = "__rlvr_register_pristine__"  # not a helper the tests call: the runner's, see call()
RESTORER = "__rlvr_restorer__"  # not a helper either: the runner hands its restore() over (pandas)
FORKED = "__rlvr_forked__"  # not a helper: the fork flag (fork_flag), for the pytest recorder
# Builtins that read their caller's frame (zero-argument super(), eval/exec of a string, locals,
# vars, dir): routed through the fence they read its frame, not the tests' (red team rty:
# `super().setUp()` raised "__class__ cell not found"). Left as written; the frame fence sees
# the program's frames they run.
FRAME_BOUND = frozenset(("super", "locals", "vars", "dir", "globals", "eval", "exec", "breakpoint"))
FRAMES = "__rlvr_frames__"  # not a helper: the runner hands over the frame fence's switch (see fence)
LOOP = "__rlvr_loop__"  # a top-level loop of asserts (LoopAsserts): which of its asserts ran
# unittest.TestCase's comparing assert methods (strict.unittest_asserts implements each)
UNITTEST_METHODS = frozenset((
    "fail", "assertEqual", "assertEquals", "failUnlessEqual", "assertNotEqual", "assertNotEquals", "failIfEqual",
    "assertTrue", "assert_", "failUnless", "assertFalse", "failIf", "assertAlmostEqual", "assertAlmostEquals",
    "failUnlessAlmostEqual", "assertNotAlmostEqual", "assertNotAlmostEquals", "failIfAlmostEqual",
    "assertGreater", "assertGreaterEqual", "assertLess", "assertLessEqual", "assertIn", "assertNotIn",
    "assertIsInstance", "assertNotIsInstance", "assertListEqual", "assertTupleEqual", "assertSetEqual",
    "assertDictEqual", "assertSequenceEqual", "assertMultiLineEqual", "assertCountEqual", "assertItemsEqual",
    "assertRegex", "assertRegexpMatches", "assertNotRegex", "assertNotRegexpMatches", "assertDictContainsSubset",
))
_HELPERS = frozenset(("__rlvr_cmp__", "__rlvr_op__", "__rlvr_abs__", "__rlvr_chain__", "__rlvr_truth__",
                      "__rlvr_assert__", "__rlvr_approx__", "__rlvr_call__", "__rlvr_soft__", "__rlvr_soft_block__", "__rlvr_plain__", "__rlvr_match__", "__rlvr_iterate__",
                      "__rlvr_item__", "__rlvr_iop__", "__rlvr_namecall__", "__rlvr_fence__"))

_CMP_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn)
_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
            ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.MatMult)
CMP_NAMES = ("==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in")


def _member_iterables() -> frozenset[type]:
    """Iterables with no `__contains__` of their own, for which Python's `x in it` walks the
    items (a dict's values, an OrderedDict's views, unhashable dict items, the builtin
    iterators, generators, map/filter/zip, itertools'): immutable C types, so walking them runs
    no code of anyone's but the generator's or the function's of a map, as Python's `in` does."""
    import itertools
    from collections import OrderedDict, deque

    od = OrderedDict()
    made = ({}.values(), {}.items(), od.keys(), od.values(), od.items(), iter(od), reversed(od), iter([]), reversed([]),
            iter(()), iter(range(0)), iter(range(1 << 64)), iter(set()), iter(""), iter(b""), iter(bytearray()), iter({}),
            iter({}.values()), iter({}.items()), reversed({}), reversed({}.values()), reversed({}.items()), reversed(""),
            iter(len, 0), iter(deque()), reversed(deque()), map(len, []), filter(None, []), zip(), enumerate([]),
            (v for v in ()))
    return frozenset([type(v) for v in made] + [v for v in vars(itertools).values() if type(v) is type])


MEMBER_ITERABLES = _member_iterables()
BIN_NAMES = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "@")

# Captured at import (the zygote imports the harness before any check exists).
_PRISTINE_BUILTINS: dict[str, Any] = dict(_builtins_mod.__dict__)


def pristine_builtins() -> dict[str, Any]:
    """A fresh copy of the builtins as they were before any candidate ran."""
    return dict(_PRISTINE_BUILTINS)


# How rewritten test code reaches the helpers: not by a name (the tests' globals are reachable
# from any function of theirs the candidate is handed, and a name can be rebound), but as a
# constant of the code object: `"\0rlvr:__rlvr_cmp__".__call__(...)` compiles to a string
# constant, which `link` replaces with the helper itself before the code runs. A code object's
# constants are reached only through `__code__`, which the guard refuses to candidate code for
# the tests' functions; what is not reachable cannot have its closure cells rewritten.
SENTINEL = "\0rlvr:"


def helper_ref(name: str) -> ast.expr:
    return ast.Attribute(value=ast.Constant(SENTINEL + name), attr="__call__", ctx=ast.Load())


def helper_name(node: ast.AST) -> str | None:
    """The helper a `helper_ref` node names, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        value = node.value.value
        return value[len(SENTINEL):] if value.startswith(SENTINEL) else None
    return None


def link(code: Any, helpers: dict[str, Any]) -> Any:
    """`code` (and every code object inside it) with each helper's sentinel constant replaced
    by the helper from `helpers` (make_namespace's); run before the code runs."""
    table = {SENTINEL + name: fn for name, fn in helpers.items()}
    return _link(code, table)


def _link(code: Any, table: dict[str, Any]) -> Any:
    consts = code.co_consts
    new = None
    code_type = type(code)
    for i, c in enumerate(consts):
        t = type(c)
        if t is str and c in table:
            rep = table[c]
        elif t is code_type:
            rep = _link(c, table)
            if rep is c:
                continue
        else:
            continue
        if new is None:
            new = list(consts)
        new[i] = rep
    return code.replace(co_consts=tuple(new)) if new is not None else code


_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _located(new: ast.AST, src: ast.AST) -> ast.AST:
    """Give `new` and every node made with it `src`'s position, down to the nodes that already
    have one (the original operands). What ast.fix_missing_locations would give them, without
    walking the whole tree: a HumanEval+ test is ~20k nodes, and that walk was a third of the
    time it took to prepare one."""
    where = {a: getattr(src, a, None) for a in _LOCATION}
    stack = [new]
    while stack:
        node = stack.pop()
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is not None:
                continue
            node.__dict__.update(where)  # a node's attributes live in its dict: setattr's four, in one call
        stack.extend(child_nodes(node))
    return new


class StrictRewriter(ast.NodeTransformer):
    """Rewrite the tests' comparisons and arithmetic (everywhere in the test code: evalplus
    computes `exact_match = out == exp` before it asserts it) into harness calls, and their
    asserts into logged ones (see visit_Assert)."""

    def __init__(self, plain: dict[int, tuple[str, ...]] | None = None) -> None:
        self.in_assert = 0
        self.asserting = [True]  # module level decides
        self.handled = 0  # inside a `try` (or `with ...raises(...)`) of the test that handles a failed assert
        self.plain = plain if plain is not None else {}  # plain_functions(): id(def) -> builtins it reads
        self.in_plain = 0  # inside the plain copy of a function's body (see visit_FunctionDef)
        self.approx_names = {"approx"}
        self.imported: set[str] = set()  # names the tests bind with `from X import name` (imported_names)

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
        node.test = _located(ast.Call(func=helper_ref(ASSERT), args=args, keywords=[]), node)
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
    def _deciding(self) -> bool:
        """Inside an assert, at module level, or in a function that asserts (evalplus's
        `assertion` computes `exact_match = out == exp` before asserting it). A function
        without an assert (a reference implementation in the tests, which HumanEval+'s
        /130 runs ~10M operations of) keeps Python's operators: rewriting it cost 12x."""
        return self.in_assert > 0 or self.asserting[-1]

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        """Every function of the tests decides a verdict as soon as its result can reach one
        (`def same(a, b): return a == b`, `if got != want: raise AssertionError`): its
        operators are rewritten. A function that does not assert and reads nothing but its
        arguments, builtins and other such functions (plain_functions: a reference
        implementation, HumanEval+ /130's ~10M operations) gets a second, Python-operator copy
        of its body, run only when every argument it is called with is plain data and every
        builtin it reads is the pristine one (PLAIN): then no object of anyone's can take part
        in its operations, and Python's answers are the ones the reference graders give."""
        asserting = any(type(n) is ast.Assert or (
            type(n) is ast.Attribute and n.attr in UNITTEST_METHODS) for n in ast.walk(node))
        names = None if asserting else self.plain.get(id(node))
        body = node.body
        doc = body[:1] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str) else []
        plain_body = None
        if names is not None and body[len(doc):]:
            import copy

            plain_body = copy.deepcopy(body[len(doc):])
        # A function defined inside a `try` runs whenever it is called, not inside that try:
        # its asserts are nobody's handled ones (a callback handed to the candidate, who
        # swallows the AssertionError)
        handled, self.handled = self.handled, 0
        in_plain, self.in_plain = self.in_plain, 0
        self.asserting.append(True)
        try:
            self.generic_visit(node)
        finally:
            self.asserting.pop()
        if plain_body is not None:
            # the plain copy: operators as written; functions and lambdas defined in it are
            # made by the same rules as anywhere (a lambda returned from it is called later
            # with anything)
            self.asserting.append(False)
            self.in_plain = 1
            try:
                plain_body = [self.visit(s) for s in plain_body]
            finally:
                self.asserting.pop()
            a = node.args
            params = [p.arg for p in (*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []),
                                      *a.kwonlyargs, *([a.kwarg] if a.kwarg else []))]
            check = ast.Call(func=helper_ref(PLAIN), args=[
                ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load()),
                ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load()) for n in names], ctx=ast.Load()),
                ast.Tuple(elts=[ast.Name(id=p, ctx=ast.Load()) for p in params], ctx=ast.Load()),
            ], keywords=[])
            # if (__rlvr_args := PLAIN(...)) is not None: (a, b) = __rlvr_args; <plain body>
            held = ast.NamedExpr(target=ast.Name(id="__rlvr_args", ctx=ast.Store()), value=check)
            test = ast.Compare(left=held, ops=[ast.IsNot()], comparators=[ast.Constant(None)])
            if params:
                rebind = ast.Assign(targets=[ast.Tuple(elts=[ast.Name(id=p, ctx=ast.Store()) for p in params],
                                                       ctx=ast.Store())],
                                    value=ast.Name(id="__rlvr_args", ctx=ast.Load()))
                plain_body = [rebind, *plain_body]
            dual = ast.If(test=test, body=plain_body, orelse=node.body[len(doc):])
            node.body = node.body[:len(doc)] + [_located(dual, node.body[len(doc)])]
        self.handled, self.in_plain = handled, in_plain
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        handled, self.handled = self.handled, 0
        if self.in_plain:
            self.asserting.append(True)  # a lambda made in a plain body is called with anything
        try:
            return self.generic_visit(node)
        finally:
            self.handled = handled
            if self.in_plain:
                self.asserting.pop()

    def visit_Match(self, node: ast.Match) -> ast.AST:
        """`match got: case 2:` compares `got == 2` with no Compare node: the subject goes
        through __rlvr_match__, which hands the patterns its plain value when it is trusted,
        and refuses an object nobody vouches for unless every pattern only captures it."""
        self.generic_visit(node)
        if not self._deciding():
            return node
        captures_only = all(isinstance(c.pattern, ast.MatchAs) and c.pattern.pattern is None for c in node.cases)
        node.subject = _located(ast.Call(func=helper_ref(MATCH), args=[node.subject, ast.Constant(captures_only)],
                                         keywords=[]), node.subject)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        """`expected[got]`: a dict finds a key by the key's hash and `==`, so a liar used as
        the key answers (`{2: "ok"}[got]`); read through __rlvr_item__ (see make_namespace)."""
        self.generic_visit(node)
        if not self._deciding() or not isinstance(node.ctx, ast.Load) or isinstance(node.slice, (ast.Slice, ast.Constant)):
            return node
        return _located(ast.Call(func=helper_ref(ITEM), args=[node.value, node.slice], keywords=[]), node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if not self._deciding() or not all(isinstance(op, _CMP_OPS) for op in node.ops):
            return node
        idxs = [_CMP_OPS.index(type(op)) for op in node.ops]
        if len(idxs) == 1:
            args = [ast.Constant(idxs[0]), node.left, node.comparators[0]]
            if idxs[0] in (0, 1):
                # `[got, 1] == [mock.ANY, 1]`: where the tests' text puts ANY in a display on one
                # side (and nowhere on the other), those positions are wildcards (wild_mask)
                left, right = wild_mask(node.left), wild_mask(node.comparators[0])
                if (left is None) != (right is None) and not _mentions_any(node.comparators[0] if left else node.left):
                    args += [ast.Constant(1 if left is not None else 2), ast.Constant(left if left is not None else right)]
            new = ast.Call(func=helper_ref(CMP), args=args, keywords=[])
        else:
            # a < b < c: each operand evaluated once and lazily, as Python does (short-circuit).
            thunks = [ast.Lambda(args=_no_args(), body=c) for c in node.comparators]
            args = [ast.Tuple(elts=[ast.Constant(i) for i in idxs], ctx=ast.Load()), node.left, *thunks]
            new = ast.Call(func=helper_ref(CHAIN), args=args, keywords=[])
        return _located(new, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not self._deciding() or not isinstance(node.op, _BIN_OPS):
            return node
        idx = _BIN_OPS.index(type(node.op))
        new = ast.Call(func=helper_ref(OP), args=[ast.Constant(idx), node.left, node.right], keywords=[])
        return _located(new, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        """`x -= expected`, `s ^= {2}`: the in-place operator hands the expected value to the
        target's `__isub__`/`__rsub__`, or compares set elements by their `__eq__`, as surely as
        a binary operator does: through __rlvr_iop__, on op()'s rules (Python's in-place
        operator where both operands are trusted). The target is evaluated once: a name is
        read and rebound; an attribute's object, or a subscript's object and key, are handed
        to the helper, which reads, operates and stores. A slice target is left as written."""
        self.generic_visit(node)
        if not self._deciding() or not isinstance(node.op, _BIN_OPS):
            return node
        idx = ast.Constant(_BIN_OPS.index(type(node.op)))
        target = node.target
        if isinstance(target, ast.Name):
            read = _located(ast.Name(id=target.id, ctx=ast.Load()), target)
            call = ast.Call(func=helper_ref(IOP), args=[idx, read, node.value, ast.Constant(None), ast.Constant(None)],
                            keywords=[])
            return _located(ast.Assign(targets=[target], value=_located(call, node)), node)
        if isinstance(target, ast.Attribute) and not (target.attr.startswith("__") and not target.attr.endswith("__")):
            args = [idx, target.value, node.value, ast.Constant("attr"), ast.Constant(target.attr)]
        elif isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
            args = [idx, target.value, node.value, ast.Constant("item"), target.slice]
        else:
            return node  # a private name the compiler mangles, a slice: left as written
        return _located(ast.Expr(value=_located(ast.Call(func=helper_ref(IOP), args=args, keywords=[]), node)), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in self.approx_names:
            # `pytest.approx(...)` made by the tests (anywhere in them): only such an object
            # may stand for an expected value with a tolerance (a candidate's own approx with
            # abs=1e300 equals anything)
            return _located(ast.Call(func=helper_ref(APPROX), args=[node], keywords=[]), node)
        if (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self" and node.func.attr in UNITTEST_METHODS):
            # `self.assertEqual(a, b)` in a TestCase: the strict implementation, whatever the
            # instance's attributes have become (the candidate can reach the instance)
            args = [node.func.value, ast.Constant(node.func.attr), *node.args]
            return _located(ast.Call(func=helper_ref(UNITTEST), args=args, keywords=node.keywords), node)
        if not self._deciding():
            return node
        if isinstance(node.func, ast.Name) and node.func.id in ("map", "filter", "iter"):
            # C iterators that call a function: a StopIteration out of it would end them
            # (see make_namespace's `iterate`)
            new = ast.Call(func=helper_ref(ITERATE), args=[node.func, *node.args], keywords=node.keywords)
            return _located(new, node)
        if isinstance(node.func, ast.Attribute):
            # `np.allclose(out, exp)`: a library function handed the candidate's object and the
            # expected value lets the object's own methods (__sub__, __array__ ...) see and
            # answer the expected value; __rlvr_call__ refuses that mix (see make_namespace)
            owner, name = node.func.value, node.func.attr
            if name.startswith("__") and not name.endswith("__"):
                return node  # a private name the compiler mangles: left as written
            new = ast.Call(func=helper_ref(CALL), args=[owner, ast.Constant(name), *node.args], keywords=node.keywords)
            return _located(new, node)
        if isinstance(node.func, ast.Name) and node.func.id in self.imported:
            # `from operator import eq; eq(got, want)`, `from numpy import allclose`: a library
            # function by a bare name is held to the rule of `np.allclose(...)` (a liar's
            # reflected __eq__ answered operator.eq's expected value: red team rtv)
            new = ast.Call(func=helper_ref(NAMECALL), args=[node.func, *node.args], keywords=node.keywords)
            return _located(new, node)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "abs"
            and len(node.args) == 1
            and not node.keywords
        ):
            new = ast.Call(func=helper_ref(ABS), args=node.args, keywords=[])
            return _located(new, node)
        if isinstance(node.func, ast.Name) and not self.in_plain and node.func.id not in FRAME_BOUND:
            # `candidate(x)`: see make_namespace's fence
            new = ast.Call(func=helper_ref(FENCE), args=[node.func, *node.args], keywords=node.keywords)
            return _located(new, node)
        return node


def _is_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "ANY") or (isinstance(node, ast.Attribute) and node.attr == "ANY")


def _mentions_any(node: ast.AST) -> bool:
    return any(_is_any(n) for n in ast.walk(node))


def wild_mask(node: ast.AST, depth: int = 0) -> Any:
    """Where the tests' own text writes `mock.ANY` (or `ANY`) in a comparison operand: True for
    ANY itself, a tuple of the elements' masks for a list or tuple display, None where there is
    no such position. Only positions the *text* names are wildcards: an ANY the program returns,
    or one inside a call (`f(mock.ANY)`), is an object like any other."""
    if depth > 50:
        return None
    if _is_any(node):
        return True
    if isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        inner = tuple(wild_mask(e, depth + 1) for e in node.elts)
        return inner if any(m is not None for m in inner) else None
    return None


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
    if isinstance(node, ast.Call) and helper_name(node.func) in (CMP, CHAIN):
        return node  # already a harness-made bool
    if isinstance(node, ast.Constant):
        return node
    return _located(ast.Call(func=helper_ref(TRUTH), args=[node], keywords=[]), node)


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def analyse(tree: ast.AST) -> tuple[dict[int, tuple[str, ...]], set[str], set[str]]:
    """What rewrite needs to know of the whole tests: plain_functions, approx_aliases and
    imported_names."""
    return plain_functions(tree), approx_aliases(tree), imported_names(tree)


def imported_names(tree: ast.AST) -> set[str]:
    """Names the tests bind with `from X import name [as alias]` (X a library: not the
    program's `solution`, not relative), pytest.approx's aside (marked on their own)."""
    names: set[str] = set()
    for n in _statements(tree):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level and n.module.split(".")[0] != "solution":
            names.update(a.asname or a.name for a in n.names if a.name not in ("*", "approx"))
    return names


def rewrite(tree: ast.AST, analysis: tuple[dict[int, tuple[str, ...]], set[str]] | None = None) -> ast.AST:
    """Rewrite `tree` in place (and return it) so its asserts use the strict helpers.
    `analysis`: analyse() of the whole tests when `tree` is a part of them (asserts-style
    steps), taken before any part is rewritten; else of `tree`."""
    plain, approx, imported = analysis if analysis is not None else analyse(tree)
    rewriter = StrictRewriter(plain)
    rewriter.approx_names |= approx
    rewriter.imported |= imported - rewriter.approx_names
    return rewriter.visit(tree)  # every node it makes is _located


def approx_aliases(tree: ast.AST) -> set[str]:
    """Names the tests bind to pytest.approx: `from pytest import approx as ap`,
    `ap = pytest.approx`, `close = functools.partial(ap, rel=1e-3)` (calls of them are marked
    like calls of `approx`)."""
    names = {"approx"}
    # (node, names its value reads, whether it reads an attribute `approx`): each value walked once
    nodes = [(n, {m.id for m in ast.walk(n.value) if isinstance(m, ast.Name)},
              any(isinstance(m, ast.Attribute) and m.attr == "approx" for m in ast.walk(n.value)))
             if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) else (n, None, False)
             for n in _statements(tree) if isinstance(n, (ast.ImportFrom, ast.Assign))]
    for _ in range(3):
        for n, reads, approx in nodes:
            if isinstance(n, ast.ImportFrom):
                names.update(a.asname for a in n.names if a.name == "approx" and a.asname)
            elif reads is not None and (approx or not reads.isdisjoint(names)):
                names.add(n.targets[0].id)
    return names


# The fields of a node that hold statements (or the handlers and match cases holding them):
# no statement is ever inside an expression, so a search for statements need not enter one.
_STATEMENT_FIELDS = frozenset(("body", "orelse", "finalbody", "handlers", "cases"))


def _statements(tree: ast.AST) -> list[ast.AST]:
    """Every statement of `tree` (handlers and match cases too), in ast.walk's order, without
    walking any expression: the tests' statement finders (imported_names, approx_aliases)
    walked every node of the tests, a HumanEval+ test's ~20k literal nodes included."""
    from collections import deque

    found: list[ast.AST] = []
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        found.append(node)
        for field in node._fields:
            if field in _STATEMENT_FIELDS:
                value = getattr(node, field, None)
                if type(value) is list:
                    todo.extend(v for v in value if isinstance(v, ast.AST))
    return found


# Builtins a function may read and still run with Python's operators on plain arguments (see
# plain_functions): none of these reaches a name, a module or code beyond its arguments.
_REACHING = frozenset(("globals", "locals", "vars", "eval", "exec", "compile", "__import__", "open", "input",
                       "breakpoint", "help", "memoryview", "super", "object", "type", "getattr", "setattr",
                       "delattr", "__build_class__", "__loader__", "__spec__", "__name__", "__doc__", "__package__"))
_PLAIN_BUILTINS = frozenset(n for n in dir(_builtins_mod) if n not in _REACHING and not n.startswith("_"))
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _scope_names(scope: ast.AST) -> tuple[set[str], set[str], bool]:
    """(names bound in this scope, names it reads, whether it declares global/nonlocal or
    imports), its nested scopes left out (their defaults and decorators belong to it)."""
    bound: set[str] = set()
    read: set[str] = set()
    reaching = False
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = scope.args
        bound.update(p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs))
        bound.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
        stack: list[ast.AST] = list(scope.body) if isinstance(scope.body, list) else [scope.body]
    elif isinstance(scope, ast.ClassDef):
        stack = list(scope.body)
    else:  # a comprehension: its generators and element
        stack = [g for g in scope.generators] + [getattr(scope, f) for f in ("elt", "key", "value") if hasattr(scope, f)]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Name:
            (read if isinstance(n.ctx, ast.Load) else bound).add(n.id)
            continue
        if t in (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom):
            reaching = True
            if t is not ast.Global and t is not ast.Nonlocal:
                bound.update((a.asname or a.name).split(".")[0] for a in n.names)
            continue
        if isinstance(n, _SCOPES):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(n.name)
                stack.extend(n.decorator_list)
                if not isinstance(n, ast.ClassDef):
                    stack.extend(d for d in (*n.args.defaults, *n.args.kw_defaults) if d is not None)
                else:
                    stack.extend((*n.bases, *n.keywords))
            elif isinstance(n, ast.Lambda):
                stack.extend(d for d in (*n.args.defaults, *n.args.kw_defaults) if d is not None)
            else:
                stack.append(n.generators[0].iter)  # evaluated in the enclosing scope
            continue
        if t is ast.ExceptHandler and n.name:
            bound.add(n.name)
        elif t in (ast.MatchAs, ast.MatchStar) and n.name:
            bound.add(n.name)
        elif t is ast.MatchMapping and n.rest:
            bound.add(n.rest)
        stack.extend(child_nodes(n))
    return bound, read, reaching


def _nested_scopes(node: ast.AST) -> list[ast.AST]:
    """The scopes directly inside `node`'s own scope."""
    found: list[ast.AST] = []
    stack = child_nodes(node)
    while stack:
        n = stack.pop()
        if isinstance(n, _SCOPES):
            found.append(n)
            continue
        stack.extend(child_nodes(n))
    return found


# Builtins and methods that read their argument or owner and change nothing (see _only_read).
_READING_BUILTINS = frozenset(("len", "sorted", "sum", "min", "max", "abs", "list", "tuple", "set", "frozenset",
                               "dict", "str", "int", "float", "complex", "bool", "bytes", "isinstance", "enumerate",
                               "zip", "range", "reversed", "any", "all", "round", "repr", "hash", "iter", "divmod",
                               "pow", "ord", "chr", "hex", "oct", "bin", "format", "ascii", "map", "filter"))
_READING_METHODS = frozenset(("count", "index", "get", "keys", "values", "items", "copy", "startswith", "endswith",
                              "find", "rfind", "split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper",
                              "join", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "replace",
                              "issubset", "issuperset", "isdisjoint", "union", "intersection", "difference",
                              "symmetric_difference", "real", "imag", "conjugate", "bit_length", "is_integer",
                              "encode", "decode", "format", "splitlines", "partition", "rpartition", "zfill"))


def _only_read(fn: ast.AST) -> bool:
    """Whether every use of fn's parameters only reads them (compared, computed with, indexed,
    iterated, handed to a reading builtin or method): then fn may run on copies of its
    arguments (see make_namespace's plain_call) and nobody can tell."""
    a = fn.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x))}
    # one pass, each node with its parent (every use must pass: the order does not matter)
    stack: list[tuple[ast.AST, ast.AST | None]] = [(fn, None)]
    while stack:
        node, parent = stack.pop()
        if type(node) is not ast.Name:
            stack.extend([(child, node) for child in child_nodes(node)])
            continue
        if node.id not in params:
            continue
        if not isinstance(node.ctx, ast.Load):
            return False  # rebound: fine in itself, but then what is read is not the argument
        t = type(parent)
        if t in (ast.Compare, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.FormattedValue, ast.IfExp):
            continue
        if t is ast.Subscript and parent.value is node and isinstance(parent.ctx, ast.Load):
            continue
        if t is ast.Subscript and parent.slice is node:
            continue
        if t in (ast.For, ast.AsyncFor, ast.comprehension) and parent.iter is node:
            continue
        if t is ast.Call and node in parent.args and isinstance(parent.func, ast.Name) and parent.func.id in _READING_BUILTINS:
            continue
        if t is ast.Attribute and isinstance(parent.ctx, ast.Load) and parent.attr in _READING_METHODS:
            continue
        if t is ast.Call and node in parent.args:
            callee = parent.func
            if isinstance(callee, ast.Attribute) and callee.attr in _READING_METHODS:
                continue
        return False
    return True


def plain_functions(tree: ast.AST) -> dict[int, tuple[str, ...]]:
    """The functions of `tree` (by id of their def node) whose body may run with Python's
    operators when their arguments are plain data, each with the builtins it reads: functions
    that read nothing but their own locals and arguments, builtins not named in _REACHING
    (and not rebound at module level), and other such functions defined once at module level;
    that import nothing and declare no global or nonlocal, and only read their arguments
    (_only_read: they run on copies). What they compute is then a
    function of plain data alone: no object of anyone's can take part (StrictRewriter checks
    the arguments and the builtins when it is called, see make_namespace's `plain_call`)."""
    module_bound, _, _ = _scope_names(ast.ClassDef(name="", bases=[], keywords=[], body=list(getattr(tree, "body", [])),
                                                    decorator_list=[]))
    body = list(getattr(tree, "body", []))
    defs = [s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    rebound, _, _ = _scope_names(ast.ClassDef(name="", bases=[], keywords=[], decorator_list=[],
                                              body=[s for s in body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]))
    plain_defs: dict[str, ast.AST] = {}
    for d in defs:  # a name bound once at module level, by its def
        plain_defs[d.name] = d if d.name not in plain_defs and d.name not in rebound else None  # type: ignore[assignment]
    functions: list[ast.AST] = []
    escapes: dict[int, set[str] | None] = {}  # names a function reads and does not bind; None: it reaches
    closure: dict[int, set[str]] = {}  # names bound by the functions around it (not classes)

    def walk(scope: ast.AST, chain: list[tuple[ast.AST, set[str]]], open_fns: list[tuple[ast.AST, int]]) -> None:
        bound, read, reaching = _scope_names(scope)
        chain = chain + [(scope, bound)]
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append(scope)
            escapes[id(scope)] = set()
            closure[id(scope)] = set().union(*(b for s, b in chain[:-1] if not isinstance(s, ast.ClassDef)))
            open_fns = open_fns + [(scope, len(chain) - 1)]
        for fn, start in open_fns:
            names = escapes[id(fn)]
            if names is None:
                continue
            if reaching:
                escapes[id(fn)] = None
                continue
            for name in read:
                if not any(name in b for _, b in chain[start:]):
                    names.add(name)
        for child in _nested_scopes(scope):
            walk(child, chain, open_fns)

    for child in _nested_scopes(tree):
        walk(child, [], [])

    def allowed(fn: ast.AST, name: str, ok: set[int]) -> bool:
        if name in closure[id(fn)]:
            return False  # a variable of the function around it: anything
        if name in module_bound:
            helper = plain_defs.get(name)
            return helper is not None and id(helper) in ok
        return name in _PLAIN_BUILTINS

    ok = {id(f) for f in functions if escapes[id(f)] is not None and _only_read(f)}
    changed = True
    while changed:
        changed = False
        for f in functions:
            if id(f) in ok and not all(allowed(f, n, ok) for n in escapes[id(f)] or ()):
                ok.discard(id(f))
                changed = True
    return {id(f): tuple(sorted(n for n in escapes[id(f)] or () if n not in module_bound))
            for f in functions if id(f) in ok}


SOFT = "__rlvr_soft__"
SOFT_BLOCK = "__rlvr_soft_block__"  # the soft assert of a test that reads its own frame (eval, locals ...)
HELD = "__rlvr_held__"  # around a soft function's assert the tests guard themselves: whether it completed
HELD_LINES = "__rlvr_held_lines__"  # not a helper: the runner's view of what soft() and HELD recorded


class SoftAsserts(ast.NodeTransformer):
    """Inside a test function called at the top level of the tests (HumanEval's `check`),
    `assert cond` becomes `__rlvr_soft__(line, lambda: cond)`: while that top-level call runs,
    each of its own asserts gets a verdict of its own and the function goes on. Run after
    `rewrite` (the `__rlvr_assert__` wrapper is taken off: the soft helper logs instead).
    Nested functions, classes and lambdas are left alone: their asserts raise.

    A test that calls a builtin reading its caller's frame (`eval("candidate(1)")`, `locals()`,
    `vars()`, `dir()`) is evaluated in the function's own frame, not a lambda's:
    `with __rlvr_soft_block__(line): __rlvr_soft__(line, cond, True)`, the block taking what
    the test raised as the lambda's call would. An assert the tests guard themselves (inside
    their `try/except AssertionError`) stays a plain assert between `__rlvr_held__(line,
    False)` and `__rlvr_held__(line, True)`: with soft()'s own record, what says whether each
    assert's last evaluation completed and held (runner._step_verdicts)."""

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

    def visit_Assert(self, node: ast.Assert) -> ast.AST | list[ast.stmt]:
        test = node.test
        if not (isinstance(test, ast.Call) and helper_name(test.func) == ASSERT):
            return node
        if len(test.args) != 2:
            # handled by the tests themselves (StrictRewriter.visit_Assert): a plain assert,
            # between marks of whether it ran to its end
            marks = [_located(ast.Expr(value=ast.Call(func=helper_ref(HELD), args=[
                ast.Constant(node.lineno), ast.Constant(done)], keywords=[])), node) for done in (False, True)]
            return [marks[0], node, marks[1]]
        test = test.args[1]
        if any(isinstance(n, ast.Name) and n.id in FRAME_BOUND for n in ast.walk(test)):
            call = ast.Call(func=helper_ref(SOFT), args=[ast.Constant(node.lineno), test, ast.Constant(True)], keywords=[])
            block = ast.With(items=[ast.withitem(context_expr=ast.Call(
                func=helper_ref(SOFT_BLOCK), args=[ast.Constant(node.lineno)], keywords=[]))], body=[ast.Expr(value=call)])
            return _located(block, node)
        call = ast.Call(
            func=helper_ref(SOFT),
            args=[ast.Constant(node.lineno), ast.Lambda(args=_no_args(), body=test)],
            keywords=[],
        )
        return _located(ast.Expr(value=call), node)


def fork_flag() -> tuple[list[bool], Callable[[], None]]:
    """(flag, watch): after `watch()` (called in the check's process before the candidate runs),
    `flag[0]` is True in every process forked from it. A forked child of the candidate returns
    into the tests and the harness like its parent, with a stdout and pipes of its own: a
    failure oracle (it fails an assert on purpose and reads what the tests or pytest then say:
    the expected value in an explanation or a message) that hands its parent the answers. So
    the strict helpers and the failure log end such a process (`os._exit`) before they compare
    or record anything: test code never runs in a process the candidate forked. The flag is
    set by the interpreter's at-fork hook, which Python code cannot read or remove."""
    import os

    flag = [False]

    def on_fork(*, _flag: list[bool] = flag) -> None:
        _flag[0] = True

    def watch(*, _register: Callable[..., None] = os.register_at_fork, _on_fork: Callable[[], None] = on_fork) -> None:
        _register(after_in_child=_on_fork)

    return flag, watch


class LoopAsserts(ast.NodeTransformer):
    """A top-level loop with asserts of its own (splitting.is_loop_check) is one check: its
    asserts count as they run (`assert __rlvr_loop__("ran", <rewritten test>)`), and a last
    statement, `__rlvr_loop__("end", line)`, fails the check when none of them ran (an empty
    table, or one the program's answer made empty): a test that asserted nothing never passes.
    Run after `rewrite`; nested functions, classes and lambdas are left alone."""

    def __init__(self, line: int) -> None:
        self.line = line

    def run(self, tree: ast.Module) -> ast.Module:
        loop = tree.body[0]
        start = _located(ast.Expr(value=ast.Call(func=helper_ref(LOOP), args=[ast.Constant("start")], keywords=[])), loop)
        end = _located(ast.Expr(value=ast.Call(func=helper_ref(LOOP), args=[ast.Constant("end"), ast.Constant(self.line)],
                                                keywords=[])), loop)
        tree.body = [start, *(self.visit(s) for s in tree.body), end]
        return tree

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef  # type: ignore[assignment]

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        node.test = _located(ast.Call(func=helper_ref(LOOP), args=[ast.Constant("ran"), node.test], keywords=[]), node.test)
        return node


def failure_log(forked: list[bool] | None = None) -> Callable[[tuple[Any, ...]], Any]:
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
    from os import _exit

    forked = forked if forked is not None else [False]
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
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        acquire()
        try:
            return resume(req)
        finally:
            release()

    return send


def held(impl: Callable[..., Any]) -> Callable[..., Any]:
    """`impl` behind a function that keeps it in a keyword-only default: for what the harness
    sets where candidate code can reach it (a TestCase instance's attributes). Reading a closure
    cell (`fn.__closure__[0].cell_contents`) raises no audit event; reading a harness function's
    `__kwdefaults__` is refused by the guard. (`impl` is only the default's value: `method`
    closes over nothing.)"""

    def method(*args: Any, _impl: Callable[..., Any] = impl, **kwargs: Any) -> Any:
        return _impl(*args, **kwargs)

    method.__name__ = getattr(impl, "__name__", "method")
    return method


class StrictMismatch(AssertionError):
    """Raised when arithmetic mixes a plain number with an object that only pretends to be one."""


def make_namespace(log: Callable[[tuple[Any, ...]], Any] | None = None, registry: Any = None,
                   forked: list[bool] | None = None) -> dict[str, Any]:
    """The helper functions the rewritten asserts call, closed over pristine references;
    failures go to `log` (a failure_log; a fresh one when None).

    Call it before any candidate code runs: every builtin, module function, type and
    constant the helpers use is looked up here, once, and held in their closures, so a
    candidate that later patches `math.isclose`, `builtins.all`, a class of the standard
    library or this module's globals changes nothing the helpers see.

    Equality is decided by allowlist (docs/fidelity.md): structurally over plain values
    (exact types, element by element), by exact value for numbers (int, bool, float, complex,
    Fraction, Decimal: as exact rationals, floats with the documented tolerance), by the C
    `__eq__` of a few exact C types whose comparison runs no code of anyone else (date, time,
    datetime with a standard tzinfo, timedelta, range, array.array, re objects, numpy arrays
    and scalars of non-object dtypes), by pytest.approx's rule applied here to a plain value;
    stdlib containers (OrderedDict, defaultdict, Counter, deque, namedtuple, dict views,
    mappingproxy) are unwrapped to their plain content. Anything else is the candidate's (or
    the tests') own object: it equals only another such object, by Python's own rules."""
    import collections
    import collections.abc as _abc
    import datetime as _dt
    import decimal as _decimal
    import fractions as _fractions
    import functools as _functools
    import re as _re
    import sys as _sys
    import types as _types
    import weakref as _weakref
    from array import array as _array
    from os import _exit

    forked = forked if forked is not None else [False]
    rel_tol, abs_tol, mismatch, type_error = FLOAT_REL_TOL, FLOAT_ABS_TOL, StrictMismatch, TypeError
    log = log or failure_log()
    _repr, _str, _exception, _assertion_error = repr, str, Exception, AssertionError
    _type, _isinstance, _len, _zip, _all, _any, _bool, _id, _range = type, isinstance, len, zip, all, any, bool, id, range
    _isclose, _isnan, _isinf = _math.isclose, _math.isnan, _math.isinf
    modules = _sys.modules
    _heap_flag = 1 << 9  # Py_TPFLAGS_HEAPTYPE: set for every class defined in Python code
    _immutable_flag = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE (3.10+): never set by a class statement
    flags_of = type.__dict__["__flags__"].__get__  # not `t.__flags__`: a metaclass could answer that
    mro_of = type.__dict__["__mro__"].__get__
    name_of = type.__dict__["__name__"].__get__
    module_of = type.__dict__["__module__"].__get__
    _int, _float, _complex, _str, _bytes = int, float, complex, str, bytes
    _list, _tuple, _dict, _set, _frozenset, _NoneType, _boolt = list, tuple, dict, set, frozenset, type(None), bool
    _bytearray = bytearray
    scalar_types = frozenset((_NoneType, _boolt, _int, _float, _complex, _str, _bytes))
    exact_scalars = frozenset((_NoneType, _boolt, _int, _str, _bytes))  # equal exactly when Python says so
    fast_numbers = frozenset((_int, _float))
    plain_types = frozenset(scalar_types | {_list, _tuple, _dict, _set, _frozenset})
    # Fraction is a Python class (its methods could be patched): read through its slots.
    Fraction = _fractions.Fraction
    frac_num = Fraction.__dict__["_numerator"].__get__
    frac_den = Fraction.__dict__["_denominator"].__get__
    Decimal = _decimal.Decimal
    dec_ratio, dec_nan, dec_inf, dec_signed = Decimal.as_integer_ratio, Decimal.is_nan, Decimal.is_infinite, Decimal.is_signed
    exact_numbers = frozenset((_boolt, _int, Fraction, Decimal, _float))
    OrderedDict, defaultdict, deque = collections.OrderedDict, collections.defaultdict, collections.deque
    tzinfo_ok = frozenset((_NoneType, _dt.timezone))
    date_types = frozenset((_dt.date, _dt.datetime, _dt.time, _dt.timedelta))
    get_tzinfo = _dt.datetime.__dict__["tzinfo"].__get__
    get_ttzinfo = _dt.time.__dict__["tzinfo"].__get__
    c_exact = frozenset((_range, _array, _re.Pattern, _re.Match, _dt.timezone))  # timezone: an offset and a name
    proxy_types = frozenset((_weakref.ProxyType, _weakref.CallableProxyType))
    mappingproxy = _types.MappingProxyType
    mp_copy = mappingproxy.copy
    dict_keys, dict_items_t = _type({}.keys()), _type({}.items())
    member_iterables = MEMBER_ITERABLES
    int_index = int.__index__
    float_float = float.__float__
    complex_real, complex_imag = complex.__dict__["real"].__get__, complex.__dict__["imag"].__get__
    str_str = str.__str__
    bytes_new = bytes
    list_copy = list.copy
    tuple_iter = tuple.__iter__
    dict_items = dict.items
    set_iter = set.__iter__
    frozenset_iter = frozenset.__iter__
    deque_iter = deque.__iter__
    od_items = OrderedDict.items
    getattr_ = getattr
    class_dict = type.__dict__["__dict__"].__get__
    _not_impl = NotImplemented

    _object_getattribute = object.__getattribute__
    object_eq = object.__dict__["__eq__"]
    member_type = _type(Fraction.__dict__["_numerator"])  # a __slots__ entry's descriptor
    import pathlib as _pathlib
    path_types = frozenset((_pathlib.PurePath, _pathlib.PurePosixPath, _pathlib.PureWindowsPath,
                            _pathlib.Path, _pathlib.PosixPath, _pathlib.WindowsPath))
    path_str = _pathlib.PurePath.__str__
    path_div = _pathlib.PurePath.__truediv__
    path_rdiv = _pathlib.PurePath.__rtruediv__
    abc_set, abc_mapping = _abc.Set, _abc.Mapping
    cached_property = _functools.cached_property
    _iter, _next = iter, next
    Counter = collections.Counter
    counter_ops = {0: Counter.__add__, 1: Counter.__sub__, 7: Counter.__and__, 8: Counter.__or__}
    user_types = {collections.UserList: _list, collections.UserDict: _dict, collections.UserString: _str}
    ChainMap = collections.ChainMap
    mv_tobytes = memoryview.tobytes
    mv_format = memoryview.__dict__["format"].__get__
    dec_context = _decimal.Context()  # the defaults, taken before the candidate can change any context
    dec_ops = (dec_context.add, dec_context.subtract, dec_context.multiply, dec_context.divide,
               dec_context.divide_int, dec_context.remainder, dec_context.power)
    dec_abs = dec_context.abs
    module_type, function_type, method_type = _types.ModuleType, _types.FunctionType, _types.MethodType
    builtin_type = _types.BuiltinFunctionType
    builtin_self = builtin_type.__dict__["__self__"].__get__
    method_self = method_type.__dict__["__self__"].__get__
    callable_types = frozenset((function_type, method_type, builtin_type, _types.BuiltinMethodType))
    method_func = method_type.__dict__["__func__"].__get__
    # read as getters["__code__"]: code that reads a function's code names it (guard.py's rule 2)
    getters = {"__code__": function_type.__dict__["__code__"].__get__}
    if registry is None:
        from rlvr_harness import provenance

        registry = provenance.make_registry()
        registry.scan()
    code_category, library_class, LIBRARY = registry.category, registry.library_class, 1
    module_name = module_type.__dict__["__name__"].__get__ if "__name__" in module_type.__dict__ else (lambda m: m.__name__)
    def obj_dict(x: Any) -> dict[str, Any]:
        d = _object_getattribute(x, "__dict__")
        return d if _type(d) is _dict else {}

    cmp_ops = (
        _operator.eq, _operator.ne, _operator.lt, _operator.le, _operator.gt, _operator.ge,
        _operator.is_, _operator.is_not, _operator.contains, None,
    )
    bin_ops = (_operator.add, _operator.sub, _operator.mul, _operator.truediv, _operator.floordiv, _operator.mod, _operator.pow,
               _operator.and_, _operator.or_, _operator.xor, _operator.lshift, _operator.rshift, _operator.matmul)
    ibin_ops = (_operator.iadd, _operator.isub, _operator.imul, _operator.itruediv, _operator.ifloordiv, _operator.imod,
                _operator.ipow, _operator.iand, _operator.ior, _operator.ixor, _operator.ilshift, _operator.irshift,
                _operator.imatmul)
    inplace_types = frozenset((_list, _set, _dict, bytearray))
    _setattr, _setitem = setattr, _operator.setitem
    real_abs = abs
    UNTRUSTED = object()  # kind of a value whose own methods nobody vouches for

    def is_heap(t: type) -> bool:
        """True for classes a candidate can write: heap types that are not immutable. C types
        made with PyType_FromSpec (re.Match, array.array) are heap types too, but immutable."""
        flags = flags_of(t)
        return _bool(flags & _heap_flag) and not (flags & _immutable_flag)

    def numpy_kind(t: type) -> str | None:
        """"array" / "scalar" for numpy's own C types (the module must be numpy's, and no
        class statement makes a non-heap type), else None."""
        np = modules.get("numpy")
        if np is None or is_heap(t) or module_of(t) != "numpy":
            return None
        if t is getattr_(np, "ndarray", None):
            return "array"
        generic = getattr_(np, "generic", None)
        if generic is not None and generic in mro_of(t):
            return "scalar"
        return None

    def is_dtype(t: type) -> bool:
        """numpy's own dtype classes (np.dtype and numpy.dtypes' C types)."""
        np = modules.get("numpy")
        base = getattr_(np, "dtype", None) if np is not None else None
        return base is not None and not is_heap(t) and base in mro_of(t) and module_of(t) in ("numpy", "numpy.dtypes")

    dtype_names = frozenset((_int, _float, _complex, _boolt, _str, _bytes, object))

    def dtype_eq(d: Any, other: Any) -> bool:
        """`arr.dtype == np.int64`, `== "int64"`, `== np.dtype("i8")`, `== int`: numpy's own
        answer when the other side is a dtype, a str, a builtin scalar type or numpy's own
        scalar type (it converts them in C); anything else (an object with a `dtype`
        attribute, which numpy would read) is not equal."""
        t = _type(other)
        if not (is_dtype(t) or t is _str or t is _type and (other in dtype_names or numpy_kind(other) == "scalar")):
            return False
        try:
            return _bool(d == other)
        except _exception:  # noqa: BLE001 - a str numpy cannot read as a dtype
            return False

    def tz_ok(t: type) -> bool:
        """A tzinfo whose utcoffset() is C code nobody else wrote: none, datetime.timezone,
        or zoneinfo.ZoneInfo exactly (a C type: no class statement makes one; a subclass is
        a heap type and is not)."""
        return t in tzinfo_ok or (not is_heap(t) and module_of(t) == "zoneinfo" and name_of(t) == "ZoneInfo")

    def holds_objects(x: Any) -> bool:
        """A numpy array or scalar whose dtype holds Python objects (dtype object, or a
        structured dtype with an object field): its comparisons and truth are theirs."""
        try:
            return _bool(x.dtype.hasobject)
        except _exception:  # noqa: BLE001 - no dtype to read: nothing to trust
            return True

    approx_made: list[Any] = []  # the pytest.approx objects the tests made (held: ids stay theirs)
    approx_ids: set[int] = set()

    def mark_approx(obj: Any) -> Any:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        approx_made.append(obj)
        approx_ids.add(_id(obj))
        return obj

    def approx_kind(x: Any) -> bool:
        """A pytest.approx object the tests made (mark_approx), of one of pytest's own classes
        exactly; its values are read here, its methods never called."""
        if _id(x) not in approx_ids:
            return False
        t = _type(x)
        for name in ("_pytest.approx", "_pytest.python_api"):
            api = modules.get(name)
            if api is not None and module_of(t) == name and getattr_(api, name_of(t), None) is t:
                return True
        return False

    def reduce(x: Any, depth: int = 0) -> Any:
        """x as the plain value it stands for: a heap subclass of a builtin -> its stored
        builtin value (with the base type's unbound methods, its overrides ignored), stdlib
        containers and views -> their content, numpy scalars -> Python numbers; containers
        recursively. Anything else comes back as itself."""
        t = _type(x)
        if depth > 200:
            return x
        if t in scalar_types:
            return x
        if t is _list:
            return x if _all(_type(v) in scalar_types for v in x) else [reduce(v, depth + 1) for v in x]
        if t is _tuple:
            return x if _all(_type(v) in scalar_types for v in x) else _tuple(reduce(v, depth + 1) for v in x)
        if t is _dict:
            return {reduce(k, depth + 1): reduce(v, depth + 1) for k, v in dict_items(x)}
        if t is _set or t is _frozenset:
            return x
        if t is OrderedDict:
            return x  # ordered: compared as such (see eq)
        if t is defaultdict:
            return {reduce(k, depth + 1): reduce(v, depth + 1) for k, v in dict_items(x)}
        if t is deque:
            return x
        if t is dict_keys:
            return _set(x)
        if t is dict_items_t:
            try:
                return _set(x)
            except type_error:
                return x
        if t is mappingproxy:
            inner = mp_copy(x)
            return reduce(inner, depth + 1) if _type(inner) is _dict else x
        if t is _bytearray:
            return bytes_new(x)
        if t is memoryview:
            try:  # bytes, as Python compares a memoryview of bytes with bytes
                return mv_tobytes(x) if mv_format(x) in ("B", "b", "c") else x
            except _exception:  # noqa: BLE001 - released: nothing to compare
                return x
        if t is ChainMap:
            maps = obj_dict(x).get("maps")
            if _type(maps) is _list and _all(_type(m) is _dict for m in maps):
                merged: dict[Any, Any] = {}
                for m in maps[::-1]:
                    merged.update(dict_items(m))
                return reduce(merged, depth + 1)
            return x
        base = user_types.get(t)
        if base is not None:  # collections.UserList/UserDict/UserString: their `data`
            data = obj_dict(x).get("data")
            return reduce(data, depth + 1) if _type(data) is base else x
        if not is_heap(t):
            if numpy_kind(t) == "scalar":
                try:
                    return x.item() if _type(x.item()) in scalar_types else x
                except _exception:  # noqa: BLE001 - a datetime64 etc.: compared as a numpy value
                    return x
            return x
        # A Python class: reduce through the builtin it derives from, ignoring its overrides.
        mro = mro_of(t)
        if _boolt in mro:
            return _bool(int_index(x))
        if _int in mro:
            return int_index(x)
        if _float in mro:
            return float_float(x)
        if _complex in mro:
            return _complex(complex_real(x), complex_imag(x))
        if _str in mro:
            return str_str(x)
        if _bytes in mro:
            return bytes_new(x)
        if _list in mro:
            return [reduce(v, depth + 1) for v in list_copy(x)]
        if _tuple in mro:
            return _tuple(reduce(v, depth + 1) for v in tuple_iter(x))
        if OrderedDict in mro:
            return OrderedDict((reduce(k, depth + 1), reduce(v, depth + 1)) for k, v in od_items(x))
        if _dict in mro:
            return {reduce(k, depth + 1): reduce(v, depth + 1) for k, v in dict_items(x)}
        if _frozenset in mro:
            return _frozenset(reduce(v, depth + 1) for v in frozenset_iter(x))
        if _set in mro:
            return {reduce(v, depth + 1) for v in set_iter(x)}
        if deque in mro:
            return deque(reduce(v, depth + 1) for v in deque_iter(x))
        if abc_set in mro:
            # A class written on collections.abc.Set is the set of what it iterates (the ABC's
            # own __eq__ compares elements with `in`, where a liar element would answer, and an
            # override of the class's would be handed the expected value): read with no
            # argument of anyone's, compared by these rules. Likewise a Mapping: its items.
            return _frozenset(reduce(v, depth + 1) for v in _iter(x))
        if abc_mapping in mro:
            keys = _list(_iter(x))
            return {reduce(k, depth + 1): reduce(x[k], depth + 1) for k in keys}
        return x

    def kind(x: Any) -> Any:
        """After reduce: "plain", "number", "date", "cexact", "numpy", "approx", "container"
        (an OrderedDict or deque), or UNTRUSTED."""
        t = _type(x)
        if t in plain_types:
            return "plain"
        if t is Decimal:
            return "number"
        if t is Fraction:
            # its value is its slots, which anyone can set (`object.__new__(Fraction)`): a
            # number only when they hold what Fraction's constructor leaves there
            return "number" if _type(fraction_parts(x)) is _tuple else UNTRUSTED
        if t in date_types:
            if t is _dt.datetime and not tz_ok(_type(get_tzinfo(x))):
                return UNTRUSTED  # a tzinfo of anyone's: its utcoffset() would decide
            if t is _dt.time and not tz_ok(_type(get_ttzinfo(x))):
                return UNTRUSTED
            return "date"
        if t in c_exact:
            return "cexact"
        if t is OrderedDict or t is deque:
            return "container"
        if numpy_kind(t) is not None:
            return "numpy"
        if is_dtype(t):
            return "dtype"
        if approx_kind(x):
            return "approx"
        return UNTRUSTED

    def rational(x: Any) -> Any:
        """An exact number as (numerator, denominator), or a float for inf/nan (and for
        floats, which eq compares with the tolerance)."""
        t = _type(x)
        if t is _int or t is _boolt:
            return (int_index(x), 1)
        if t is Fraction:
            return fraction_parts(x)
        if t is Decimal:
            if dec_nan(x):
                return _float("nan")
            if dec_inf(x):
                return _float("-inf") if dec_signed(x) else _float("inf")
            return dec_ratio(x)
        return x  # float

    def fraction_parts(x: Any) -> Any:
        """A Fraction's (numerator, denominator) when its slots hold what Fraction's
        constructor leaves there (exact ints, denominator > 0); else NaN, which equals and
        orders with nothing: anyone can fill the slots (`object.__new__(Fraction)`)."""
        try:
            num, den = frac_num(x), frac_den(x)
        except AttributeError:
            return _float("nan")
        if _type(num) is _int and _type(den) is _int and den > 0:
            return (num, den)
        return _float("nan")

    def as_float(r: Any) -> float:
        if _type(r) is _tuple:
            try:
                return r[0] / r[1]
            except OverflowError:
                return _float("inf") if (r[0] > 0) else _float("-inf")
        return r

    def num_eq(a: Any, b: Any) -> bool:
        ra, rb = rational(a), rational(b)
        if _type(ra) is _tuple and _type(rb) is _tuple:
            return ra[0] * rb[1] == rb[0] * ra[1]
        fa, fb = as_float(ra), as_float(rb)
        if fa == fb:
            return True
        if _isnan(fa) or _isnan(fb) or _isinf(fa) or _isinf(fb):
            return False
        return _isclose(fa, fb, rel_tol=rel_tol, abs_tol=abs_tol)

    def pairs_eq(a: Any, b: Any, depth: int) -> bool:
        return _len(a) == _len(b) and _all(eq(x, y, depth + 1) for x, y in _zip(a, b))

    def all_plain_scalars(items: Any) -> bool:
        return _all(_type(v) in scalar_types for v in items)

    def match_all(a: Any, b: Any, depth: int) -> bool:
        """Multiset equality by eq (each of a pairs with a distinct one of b)."""
        rest = _list(b)
        if _len(rest) != _len(a):
            return False
        for x in a:
            for i, y in _zip(_range(_len(rest)), rest):
                if eq(x, y, depth + 1):
                    del rest[i]
                    break
            else:
                return False
        return True

    def dict_eq(a: Any, b: Any, depth: int) -> bool:
        if _len(a) != _len(b):
            return False
        if all_plain_scalars(a) and all_plain_scalars(b):  # keys matched as Python does
            for k, v in dict_items(a):
                if k not in b or not eq(v, b[k], depth + 1):
                    return False
            return True
        return match_all(_list(dict_items(a)), _list(dict_items(b)), depth)

    def approx_eq(approx: Any, other: Any, depth: int) -> bool:
        """pytest.approx's comparison, done here on the approx object's data (its expected
        value, rel, abs, nan_ok: set by the tests) against a plain value."""
        data = obj_dict(approx)
        expected = reduce(data.get("expected"))
        rel, absol, nan_ok = data.get("rel"), data.get("abs"), data.get("nan_ok", False)
        return approx_value(expected, other, rel, absol, nan_ok, depth)

    def approx_value(expected: Any, actual: Any, rel: Any, absol: Any, nan_ok: Any, depth: int) -> bool:
        te, ta = _type(expected), _type(actual)
        if depth > 200:
            return False
        if te is _dict:
            return ta is _dict and _len(actual) == _len(expected) and _all(
                k in actual and approx_value(v, actual[k], rel, absol, nan_ok, depth + 1) for k, v in dict_items(expected))
        if numpy_kind(te) == "array" and not holds_objects(expected):
            # pytest's ApproxNumpy: the same shape, element by element
            if numpy_kind(ta) == "array":
                if holds_objects(actual) or actual.shape != expected.shape:
                    return False
                actual = actual.tolist()
            elif not (ta is _list or ta is _tuple):
                return False
            return approx_value(expected.tolist(), actual, rel, absol, nan_ok, depth + 1)
        if te is _list or te is _tuple:
            return (ta is _list or ta is _tuple) and _len(actual) == _len(expected) and _all(
                approx_value(e, x, rel, absol, nan_ok, depth + 1) for e, x in _zip(expected, actual))
        if te in exact_numbers and ta in exact_numbers:
            fe, fa = as_float(rational(expected)), as_float(rational(actual))
            if fe == fa:
                return True
            if _isnan(fe):
                return _bool(nan_ok) and _isnan(fa)
            if _isnan(fa) or _isinf(fe) or _isinf(fa):
                return False
            atol = 1e-12 if absol is None else _float(absol)
            rtol = 0.0 if (rel is None and absol is not None) else (1e-6 if rel is None else _float(rel))
            return real_abs(fe - fa) <= max(rtol * real_abs(fe), atol)
        return eq(expected, actual, depth + 1)  # not a number: plain equality, as approx does

    def eq(a: Any, b: Any, depth: int = 0) -> bool:
        """Equality by allowlist (see make_namespace)."""
        ta = _type(a)
        if ta is _type(b) and ta in exact_scalars:
            return a == b  # the common case: two ints, two strs ... Python's answer is ours
        if depth > 200:
            return False
        if (ta is _list or ta is _tuple) and _type(b) is ta and _len(a) == _len(b):
            if _all(_type(v) in scalar_types for v in a) and _all(_type(v) in scalar_types for v in b):
                if a == b:
                    return True  # plain scalars equal as Python says (the tolerance only adds passes)
                if not _any(_type(v) is _float or _type(v) is _complex for v in a):
                    return False
        a, b = reduce(a), reduce(b)
        ka, kb = kind(a), kind(b)
        if ka == "dtype" or kb == "dtype":
            return dtype_eq(a, b) if ka == "dtype" else dtype_eq(b, a)
        if ka is UNTRUSTED or kb is UNTRUSTED:
            if ka is not kb:
                return False  # an object nobody vouches for never equals a trusted value
            if a is b:
                return True
            by = eq_of(_type(a))
            if by is not None:
                # of one type whose __eq__ is not anyone's own code (SimpleNamespace's C one,
                # pathlib's, a dataclass's generated one): that __eq__ would compare the
                # fields with Python's ==, where a liar in a field answers. Compared here.
                return _type(b) is _type(a) and by(a, b, depth)
            # two objects nobody vouches for (the candidate's own classes, as ClassEval
            # compares them): each type's own __eq__, never a reflected one, and two different
            # types must agree both ways (a Liar's reflected __eq__ does not speak for the other)
            if not own_eq(a, b):
                return False
            return _type(a) is _type(b) or own_eq(b, a)
        if ka == "approx" or kb == "approx":
            if ka == kb:
                return False
            return approx_eq(a, b, depth) if ka == "approx" else approx_eq(b, a, depth)
        ta, tb = _type(a), _type(b)
        if ta in exact_numbers and tb in exact_numbers:
            return num_eq(a, b)
        if ta is _complex or tb is _complex:
            if (ta is _complex or ta in exact_numbers) and (tb is _complex or tb in exact_numbers):
                ca = a if ta is _complex else _complex(as_float(rational(a)))
                cb = b if tb is _complex else _complex(as_float(rational(b)))
                return ca == cb
            return False
        if ka == "numpy" or kb == "numpy":
            return numpy_eq(a, b, depth)
        if ka == "date" or kb == "date" or ka == "cexact" or kb == "cexact":
            if ka != kb:
                return False
            r = a == b  # C comparisons of exact standard types: no code of anyone else runs
            return r if _type(r) is _boolt else False
        if ta is _list and tb is _list or ta is _tuple and tb is _tuple:
            return pairs_eq(a, b, depth)
        if ta is deque and tb is deque:
            return pairs_eq(_list(deque_iter(a)), _list(deque_iter(b)), depth)
        if ta is OrderedDict and tb is OrderedDict:
            return pairs_eq(_list(od_items(a)), _list(od_items(b)), depth)
        if (ta is _dict or ta is OrderedDict) and (tb is _dict or tb is OrderedDict):
            return dict_eq(_dict(od_items(a)) if ta is OrderedDict else a, _dict(od_items(b)) if tb is OrderedDict else b, depth)
        if (ta is _set or ta is _frozenset) and (tb is _set or tb is _frozenset):
            if all_plain_scalars(a) and all_plain_scalars(b):
                return _bool(a == b)
            return match_all(_list(a), _list(b), depth)
        if ta in scalar_types and tb in scalar_types:
            return ta is tb and _bool(a == b)  # str, bytes, None: only their own type
        return False

    def eq_of(t: type) -> Any:
        """How two objects of type t nobody vouches for compare when t's `__eq__` is not code
        the candidate or the tests wrote (in the program's or the tests' file): None when it
        is (own_eq then); else a function comparing their state here. A C `__eq__`
        (SimpleNamespace), a library's (pathlib, attrs), one `dataclasses` or `exec` made."""
        for cls in mro_of(t):
            fn = class_dict(cls).get("__eq__")
            if fn is None:
                continue
            if fn is object_eq or class_dict(cls).get("__rlvr_proxy__") is True:
                # identity (a is b was answered already): own_eq says False; a proxy of a split
                # check (proxies.py): its own __eq__ asks the program, as the program's class would
                return None
            if t in path_types:
                return paths_eq
            if (_type(fn) is function_type and code_category(getters["__code__"](fn)) != LIBRARY
                    and getters["__code__"](fn).co_filename.rpartition("/")[2] in own_files):
                return None  # the candidate's or the tests' own __eq__ (the tests' is rewritten)
            return state_eq
        return None

    own_files = frozenset(("solution.py", "tests.py", "test_solution.py"))  # runner's file names

    def paths_eq(a: Any, b: Any, depth: int) -> bool:
        """pathlib paths of one exact type: their text, as pathlib's own __str__ makes it
        (a path is its text; cached comparison keys in its slots are anyone's to set)."""
        try:
            sa, sb = path_str(a), path_str(b)
        except _exception:  # noqa: BLE001 - forged slots: nothing to compare
            return False
        return _type(sa) is _str and _type(sb) is _str and sa == sb

    def state_of(x: Any) -> list[Any]:
        """x's instance state: its __dict__ (an exact dict) and every slot of its classes."""
        values: list[Any] = []
        try:
            d = _object_getattribute(x, "__dict__")
        except AttributeError:
            d = missing  # no __dict__ at all (not an empty one)
        values.append(d if _type(d) is _dict or d is missing else object())  # equal to nothing
        for cls in mro_of(_type(x)):
            for member in mp_copy(class_dict(cls)).values():
                if _type(member) is member_type:
                    try:
                        values.append(member.__get__(x))
                    except AttributeError:
                        values.append(missing)
        return values

    def state_eq(a: Any, b: Any, depth: int) -> bool:
        """Two objects of one type whose __eq__ is nobody's own code: equal when their state
        is, by these rules (a C type with no state to read equals only itself)."""
        sa, sb = state_of(a), state_of(b)
        if sa and _type(sa[0]) is _dict and _type(sb[0]) is _dict:
            sa[0], sb[0] = without_caches(_type(a), sa[0], sb[0])
        if not is_heap(_type(a)) and _len(sa) == 1 and _type(sa[0]) is not _dict:
            # a C object whose state is nowhere to read (a cell, an sqlite3.Row): its own
            # __eq__ would compare what it holds with Python's ==; equal only to itself
            return False
        return _len(sa) == _len(sb) and _all(x is y or eq(x, y, depth + 1) for x, y in _zip(sa, sb))

    def without_caches(t: type, da: dict, db: dict) -> tuple[dict, dict]:
        """Two instances' __dict__s less what only one of them holds under the name of a
        `functools.cached_property` of their class (a value computed from the rest, filled on
        first read: `p.norm` read on one dataclass instance and not the other), unless the
        class's `__eq__` reads that name (its code's co_names): Python's `==` compares what the
        `__eq__` reads, and a name it reads is compared here too."""
        caches = set()
        eq_names: Any = missing  # the co_names of the first __eq__ up the MRO (None: not a function)
        for cls in mro_of(t):
            d = class_dict(cls)
            for name, member in mp_copy(d).items():
                if _type(member) is cached_property and _type(name) is _str:
                    caches.add(name)
            fn = d.get("__eq__")
            if fn is not None and eq_names is missing:
                eq_names = getters["__code__"](fn).co_names if _type(fn) is function_type else None
        if not caches or eq_names is None or eq_names is missing:
            return da, db
        drop = {k for k in caches if (k in da) != (k in db) and k not in eq_names}
        if not drop:
            return da, db
        return ({k: v for k, v in dict_items(da) if k not in drop}, {k: v for k, v in dict_items(db) if k not in drop})

    def own_eq(a: Any, b: Any) -> bool:
        """`a.__eq__(b)` as defined on a's class (found through the classes' own dicts, not
        an attribute lookup a metaclass could answer); NotImplemented is not equal."""
        for cls in mro_of(_type(a)):
            fn = class_dict(cls).get("__eq__")
            if fn is not None:
                r = fn(a, b)
                if r is _not_impl:
                    return False
                return _bool(r) if not is_heap(_type(r)) else False
        return False

    def numpy_eq(a: Any, b: Any, depth: int = 0) -> Any:
        """numpy values against numpy or plain values, where no array holds Python objects: as
        nested lists (`ndarray.tolist`, `.item`: C methods of numpy's own types, not functions
        of the numpy module, which the candidate could have patched), shapes included; else
        False."""
        for x in (a, b):
            k = numpy_kind(_type(x))
            if k is not None and holds_objects(x):
                return False
            if k is None and not plain(x):
                return False
        va = a.tolist() if numpy_kind(_type(a)) is not None else a
        vb = b.tolist() if numpy_kind(_type(b)) is not None else b
        if numpy_kind(_type(a)) == "array" and numpy_kind(_type(b)) == "array" and a.shape != b.shape:
            return False
        return eq(va, vb, depth + 1)

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

    # pandas (issue 15, s15c): a DataFrame, Series or Index of pandas' own exact classes is
    # compared, ordered and combined by pandas, as its users write it (`(got == want).all()`,
    # `df[df["a"] > 1]`), when everything pandas' comparison reads of it is pandas' own and
    # holds no object of anyone's: its state, walked here (pandas_clean), never handed the
    # other operand; pandas' classes and modules put back (the runner's restore, handed over
    # with RESTORER) just before pandas runs, so what the candidate patched during the step is
    # not what compares. A subclass (a lying __eq__), a column of the candidate's objects, an
    # instance attribute shadowing a pandas method, or state of a class pandas does not define:
    # not equal, as any object nobody vouches for.
    pandas_state: dict[str, Any] = {"frames": frozenset(), "classes": frozenset(), "restore": None}
    weakref_type = _weakref.ReferenceType
    getset_type = _type(function_type.__dict__["__code__"])
    slice_type = slice

    def learn_pandas(module: Any) -> None:
        """pandas' classes (and pyarrow's, its string storage), by identity, from the modules
        loaded now (before the candidate runs): the registry of what a pandas object may hold."""
        if pandas_state["classes"] or module_name(module) != "pandas":
            return
        classes = set()
        for name, m in _list(dict_items(modules)):
            top = name.partition(".")[0] if _type(name) is _str else None
            if top in ("pandas", "pyarrow") and _type(m) is module_type:  # pyarrow: pandas' string storage
                for v in _list(obj_dict(m).values()):
                    if _type in mro_of(_type(v)) and _type(module_of(v)) is _str and module_of(v).partition(".")[0] in ("pandas", "pyarrow"):
                        classes.add(v)
        ns = obj_dict(module)
        index = ns.get("Index")
        frames = {ns.get("DataFrame"), ns.get("Series")} | {c for c in classes if index is not None and index in mro_of(c)}
        frames.discard(None)
        pandas_state["classes"], pandas_state["frames"] = frozenset(classes), frozenset(frames & classes)

    def set_restorer(restore: Any) -> None:
        if pandas_state["restore"] is None:
            pandas_state["restore"] = restore

    def shadows(mro: Any, key: str) -> bool:
        """An instance attribute named like a method, a callable or a non-data descriptor of its
        class (a function planted on one DataFrame would be pandas' `self._cmp_method(other,
        op)`); a data default (`_names = FrozenList()`) an instance overrides is pandas' own way."""
        for c in mro:
            d = class_dict(c)
            if key in d:
                v = d[key]
                if _type(v) in scalar_types:
                    return False
                tmro = mro_of(_type(v))
                if _any("__set__" in class_dict(m) for m in tmro):
                    return False  # a data descriptor wins over the instance's entry
                return _any("__get__" in class_dict(m) or "__call__" in class_dict(m) for m in tmro)
        return False

    def pandas_clean(v: Any, depth: int = 0) -> bool:
        if depth > 16:
            return False
        t = _type(v)
        if t in scalar_types or t is weakref_type or t is _range or t is object:
            return True
        if t is slice_type:
            return _all(_type(p) in scalar_types for p in (v.start, v.stop, v.step))
        if _type in mro_of(t):
            return not is_heap(v) or v in pandas_state["classes"]  # a class pandas caches (its Index class)
        k = numpy_kind(t)
        if k == "scalar":
            return not holds_objects(v)
        if k == "array":
            return not holds_objects(v) or _all(pandas_clean(e, depth + 1) for e in v.ravel().tolist())
        if is_dtype(t):
            return True
        if t is _tuple or t is _list:
            return _all(pandas_clean(e, depth + 1) for e in v)
        if t is _dict:
            return _all(_type(key) in scalar_types and pandas_clean(val, depth + 1) for key, val in dict_items(v))
        if t in pandas_state["classes"]:
            mro = mro_of(t)
            # what a pandas subclass of a builtin container holds (FrozenList: a MultiIndex's levels)
            if _list in mro or _tuple in mro:
                if not _all(pandas_clean(e, depth + 1) for e in (_list.copy(v) if _list in mro else _tuple(_tuple.__iter__(v)))):
                    return False
            elif _dict in mro and not _all(
                    _type(key) in scalar_types and pandas_clean(val, depth + 1) for key, val in dict_items(v)):
                return False
            try:
                d = _object_getattribute(v, "__dict__")
            except AttributeError:
                d = None
            if d is not None:
                if _type(d) is not _dict:
                    return False
                for key, val in _list(dict_items(d)):
                    if _type(key) is not _str or shadows(mro, key) or not pandas_clean(val, depth + 1):
                        return False
            for c in mro:  # a compiled (Cython) class's public fields: blocks, axes, values ...
                if c not in pandas_state["classes"]:
                    continue
                for name, desc in _list(class_dict(c).items()):
                    if _type(desc) is member_type or (_type(desc) is getset_type and name in ("blocks", "axes", "values", "_mgr_locs")):
                        try:
                            val = desc.__get__(v, t)
                        except _exception:  # noqa: BLE001 - a field not set: pandas cannot read it either
                            continue
                        if not pandas_clean(val, depth + 1):
                            return False
            return True
        return False

    def pandas_side(x: Any) -> bool:
        if _type(x) in pandas_state["frames"]:
            return pandas_clean(x)
        rx = reduce(x)
        return trusted(rx) and not (numpy_kind(_type(rx)) is not None and holds_objects(rx))

    def pandas_op(a: Any, b: Any, f: Any) -> tuple[bool, Any]:
        """(True, pandas' answer) when either side is a pandas object of pandas' own and both
        sides are clean; (False, None) when a pandas object is involved but not clean."""
        if not (pandas_side(a) and pandas_side(b)):
            return False, None
        restore = pandas_state["restore"]
        if restore is not None:
            restore()
        return True, f(a, b)

    def is_pandas(ta: type, tb: type) -> bool:
        frames = pandas_state["frames"]
        return bool(frames) and (ta in frames or tb in frames)

    def trusted(x: Any) -> bool:
        """Nothing of anyone's own runs when x is compared, ordered or tested: plain values,
        trusted numbers, dates, numpy's (non-object) values, and containers of those."""
        k = kind(x)
        if k is UNTRUSTED:
            return False
        t = _type(x)
        if t is _list or t is _tuple or t is _set or t is _frozenset or t is deque:
            return _all(trusted(v) for v in x)
        if t is _dict or t is OrderedDict:
            return _all(trusted(k2) and trusted(v) for k2, v in dict_items(x))
        if k == "numpy":
            return not holds_objects(x)
        return True

    def strict_eq(a: Any, b: Any) -> bool:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        return eq(a, b)

    pristine = _PRISTINE_BUILTINS

    def plain_call(names: tuple[str, ...], values: tuple[Any, ...], args: tuple[Any, ...]) -> Any:
        """Whether a function of the tests may run its Python-operator body (see
        StrictRewriter.visit_FunctionDef): every builtin it reads is the pristine one, every
        argument is plain data, exactly builtin all the way down. Then a copy of the
        arguments, which the body runs on (a list the candidate still holds could be changed
        by a thread of its own between this check and the body's comparisons), else None."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        for name, value in _zip(names, values):
            if value is not pristine.get(name, missing):
                return None
        copied = plain_copy(args, 0)
        return None if copied is missing else copied

    def plain_copy(x: Any, depth: int) -> Any:
        """A copy of x made of what was read and checked (exactly builtin, all the way
        down), or `missing`."""
        t = _type(x)
        if t in scalar_types:
            return x
        if depth > 200:
            return missing
        if t is _list or t is _tuple or t is _set or t is _frozenset:
            items = _list(x) if t is _list else x  # list(): one read of a list someone may change
            out = []
            for v in items:
                c = plain_copy(v, depth + 1)
                if c is missing:
                    return missing
                out.append(c)
            return out if t is _list else t(out)
        if t is _dict:
            out_d = {}
            for k, v in _list(dict_items(x)):
                ck, cv = plain_copy(k, depth + 1), plain_copy(v, depth + 1)
                if ck is missing or cv is missing:
                    return missing
                out_d[ck] = cv
            return out_d
        return missing

    def order(op: Any, a: Any, b: Any) -> bool:
        if is_pandas(_type(a), _type(b)):
            ok, r = pandas_op(a, b, op)
            return r if ok else False
        a, b = reduce(a), reduce(b)
        ta, tb = trusted(a), trusted(b)
        if ta != tb:
            return False  # `__lt__` of an object nobody vouches for against a trusted bound proves nothing
        if ta and _type(a) in exact_numbers and _type(b) in exact_numbers:
            ra, rb = rational(a), rational(b)
            if _type(ra) is _tuple and _type(rb) is _tuple:
                return _bool(op(ra[0] * rb[1], rb[0] * ra[1]))  # denominators are positive
            return _bool(op(as_float(ra), as_float(rb)))
        r = op(a, b)
        if _type(r) is _boolt:
            return r
        if ta and numpy_kind(_type(r)) is not None:
            return r  # numpy's elementwise answer, as Python would give it
        return False

    def masked_eq(want: Any, got: Any, mask: Any, wildcard: Any, depth: int = 0) -> bool:
        """eq(want, got), where `mask` (strict.wild_mask of the tests' text) marks the positions
        of `want` at which the tests wrote mock.ANY: there, mock.ANY matches anything."""
        if mask is True:
            return (wildcard is not None and want is wildcard) or eq(want, got, depth)
        if mask is None or depth > 50:
            return eq(want, got, depth)
        got = reduce(got)
        t = _type(want)
        if (t is _list or t is _tuple) and _type(got) is t and _len(want) == _len(got) == _len(mask):
            return _all(masked_eq(w, g, m, wildcard, depth + 1) for w, g, m in _zip(want, got, mask))
        return eq(want, got, depth)

    def cmp(idx: int, a: Any, b: Any, side: int = 0, mask: Any = None) -> Any:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if side and (idx == 0 or idx == 1):
            r = masked_eq(a, b, mask, mock_any()) if side == 1 else masked_eq(b, a, mask, mock_any())
            return r if idx == 0 else not r
        if idx == 0 or idx == 1:
            ta, tb = _type(a), _type(b)
            if is_pandas(ta, tb):
                ok, r = pandas_op(a, b, _operator.eq if idx == 0 else _operator.ne)
                return r if ok else (idx == 1)
            if (ta not in plain_types or tb not in plain_types) and (
                    numpy_kind(ta) == "array" or numpy_kind(tb) == "array"):
                return numpy_cmp(a, b, _operator.eq if idx == 0 else _operator.ne)
            return eq(a, b) if idx == 0 else not eq(a, b)
        if idx in (2, 3, 4, 5):
            return order(cmp_ops[idx], a, b)
        if idx == 6:
            return a is b
        if idx == 7:
            return a is not b
        # membership: `x in container` checks with eq, element by element
        container = reduce(b)
        ct = _type(container)
        if ct is _str or ct is _bytes:
            ra = reduce(a)
            found = _type(ra) is ct and ra in container
        elif ct is _dict or ct is OrderedDict or ct is _set or ct is _frozenset:
            found = any_strict(a, _list(container))
        elif ct is _list or ct is _tuple or ct is deque:
            found = any_strict(a, container)
        elif ct is _range:
            r = rational(reduce(a)) if _type(reduce(a)) in exact_numbers else None
            if _type(r) is _float and not _isnan(r) and not _isinf(r) and r == _int(r):
                r = (_int(r), 1)
            found = _type(r) is _tuple and r[1] == 1 and r[0] in container
        elif ct in member_iterables:
            found = any_strict(a, container)  # item by item, stopping at the first, as Python does
        elif numpy_kind(ct) == "array":
            # numpy's own answer, `(array == x).any()`, when nothing of anyone's is compared
            found = trusted(container) and trusted(reduce(a)) and _bool(a in container)
        elif kind(container) is UNTRUSTED and kind(reduce(a)) is UNTRUSTED:
            found = _bool(a in container)  # the candidate's container and the candidate's value
        else:
            found = False  # a container nobody vouches for answering `in` proves nothing
        return found if idx == 8 else not found

    def numpy_cmp(a: Any, b: Any, op: Any) -> Any:
        """`==` / `!=` with a numpy array on one side: numpy's elementwise answer when both
        sides are numpy's or plain values and no array holds Python objects."""
        if not (trusted(reduce(a)) and trusted(reduce(b))):
            return False
        return op(a, b)

    def any_strict(a: Any, items: Any) -> bool:
        for item in items:
            if eq(a, item):
                return True
        return False

    def op(idx: int, a: Any, b: Any) -> Any:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        ta, tb = _type(a), _type(b)
        if ta in fast_numbers and tb in fast_numbers:
            return bin_ops[idx](a, b)  # int/float arithmetic: Python's own
        if idx == 3 and (ta in path_types and (tb is _str or tb in path_types) or tb in path_types and ta is _str):
            return path_div(a, b) if ta in path_types else path_rdiv(b, a)  # tmp_path / "out.txt": pathlib's own join
        if idx in counter_ops and ta is Counter and tb is Counter:
            if trusted(reduce(a)) and trusted(reduce(b)):
                return counter_ops[idx](a, b)  # Counter's own arithmetic, on counts nobody else's
        if is_pandas(ta, tb):
            ok, r = pandas_op(a, b, bin_ops[idx])
            if ok:
                return r
        ra, rb = reduce(a), reduce(b)
        if idx == 5 and (_type(ra) is _str or _type(ra) is _bytes):
            return bin_ops[idx](ra, b)  # "%s" % value: formatting, its str() is the value's own
        if not (trusted(ra) and trusted(rb)):
            if kind(ra) is UNTRUSTED and kind(rb) is UNTRUSTED:
                return bin_ops[idx](a, b)  # the candidate's objects among themselves (a vector sum)
            msg = f"arithmetic between a {_type(a).__name__} and a {_type(b).__name__} is not trusted"
            log(("fail", "hard", 0, "failed", msg))
            raise mismatch(msg)
        if _type(ra) is Fraction or _type(rb) is Fraction:
            # Fraction is a Python class whose methods could be patched: its arithmetic is done
            # on exact rationals (int operands) or floats (a float operand), as Python would
            if _type(ra) is _float or _type(rb) is _float or _type(ra) is Decimal or _type(rb) is Decimal:
                return bin_ops[idx](as_float(rational(ra)), as_float(rational(rb)))
            return bin_ops[idx](Fraction(*rational(ra)), Fraction(*rational(rb)))
        if (_type(ra) is Decimal or _type(rb) is Decimal) and _type(ra) is not _float and _type(rb) is not _float and idx < 7:
            # under the default context taken before the candidate ran: the thread's current
            # one is the candidate's to set (precision 1 rounds every difference away)
            return dec_ops[idx](ra, rb)
        return bin_ops[idx](ra, rb)

    def iop(idx: int, a: Any, b: Any, where: Any, key: Any) -> Any:
        """`a op= b` (where None: the caller rebinds its name to the result), `a.key op= b`
        (where "attr") or `a[key] op= b` (where "item"). Python's in-place operator when both
        operands are trusted and the target is a builtin container (a list extended, a set
        updated: the tests' own aliases see it) or both are objects nobody vouches for (the
        candidate's among themselves); else op()'s rules: an object nobody vouches for beside
        a trusted value is refused, whatever its `__isub__` would say."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if where is None:
            target = a
        elif where == "attr":
            target = getattr_(a, key)
        else:
            target = item(a, key)
        ta, tb = _type(target), _type(b)
        if ta in fast_numbers and tb in fast_numbers:
            result = bin_ops[idx](target, b)
        elif ta is _list and (idx == 0 or idx == 2):
            result = ibin_ops[idx](target, b)  # extend, repeat: nothing is compared
        else:
            rt, rb = reduce(target), reduce(b)
            both = trusted(rt) and trusted(rb)
            if both and ta in inplace_types or not both and kind(rt) is UNTRUSTED and kind(rb) is UNTRUSTED:
                result = ibin_ops[idx](target, b)
            else:
                result = op(idx, target, b)
        if where is None:
            return result
        if where == "attr":
            _setattr(a, key, result)
        else:
            _setitem(a, key, result)
        return None

    def neutral(x: Any) -> bool:
        """Arguments that carry no value to compare: None, a class, a module, a callable, a
        pytest mark (`pytest.param(..., marks=pytest.mark.slow)`)."""
        t = _type(x)
        return x is None or t is _type or t is module_type or t in callable_types or is_mark(t)

    def is_mark(t: type) -> bool:
        api = modules.get("_pytest.mark.structures")
        return api is not None and module_of(t) == "_pytest.mark.structures" and getattr_(api, name_of(t), None) is t

    # builtin methods that only store, move or format what they are given (see call)
    storing = frozenset(("append", "extend", "insert", "appendleft", "extendleft", "copy", "clear", "reverse",
                         "rotate", "keys", "values", "items", "popleft", "__len__", "__iter__", "join", "format",
                         "format_map", "__setitem__", "tolist", "item", "astype", "reshape", "flatten", "ravel"))
    copying = frozenset((("replace", "dataclasses.py"), ("asdict", "dataclasses.py"), ("astuple", "dataclasses.py"),
                         ("fields", "dataclasses.py"), ("copy", "copy.py"), ("deepcopy", "copy.py")))
    mock_asserts = frozenset(("assert_called_with", "assert_called_once_with", "assert_any_call", "assert_has_calls"))
    # mock's patchers only store the replacement (a mock: nobody's, its class is per instance)
    placing = frozenset((("patch", "mock.py"), ("_patch_object", "mock.py"), ("_patch_multiple", "mock.py")))
    not_comparing = copying | placing

    def is_mock(x: Any) -> bool:
        """x is a unittest.mock object (its module's class as the tests imported it)."""
        api = modules.get("unittest.mock")
        if api is None:
            return False
        known = pristine_modules.get(_id(api))
        base = known[1].get("NonCallableMock") if known is not None and known[0] is api else getattr_(api, "NonCallableMock", None)
        return base is not None and base in mro_of(_type(x))

    def is_mock_call(x: Any) -> bool:
        """x is unittest.mock's `call` (or one of its attributes), which builds a call object."""
        api = modules.get("unittest.mock")
        known = pristine_modules.get(_id(api)) if api is not None else None
        kind_ = known[1].get("_Call") if known is not None and known[0] is api else None
        return kind_ is not None and _type(x) is kind_

    def call_parts(c: Any) -> Any:
        """A recorded or expected mock call as (args, kwargs) of plain containers, or None."""
        if not _isinstance(c, _tuple):
            return None
        items = _list(tuple_iter(c))
        if _len(items) == 3:
            items = items[1:]
        if _len(items) != 2 or not _isinstance(items[0], _tuple) or not _isinstance(items[1], _dict):
            return None
        return (_tuple(tuple_iter(items[0])), _dict(dict_items(items[1])))

    def mock_any() -> Any:
        """unittest.mock.ANY as the module held it before the candidate ran, or None."""
        api = modules.get("unittest.mock")
        known = pristine_modules.get(_id(api)) if api is not None else None
        return known[1].get("ANY") if known is not None and known[0] is api else None

    def wild_eq(want: Any, got: Any, wildcard: Any, depth: int = 0) -> bool:
        """eq(want, got) where `want` is what the tests expect of a mock's call and may hold
        mock.ANY: a wildcard there (the tests wrote it), never on the recorded side (the
        candidate could call the mock with ANY)."""
        if wildcard is not None and want is wildcard:
            return True
        t = _type(want)
        if depth < 100 and (t is _tuple or t is _list) and _type(got) is t and _len(want) == _len(got):
            return _all(wild_eq(w, g, wildcard, depth + 1) for w, g in _zip(want, got))
        if depth < 100 and t is _dict and _type(got) is _dict and eq(_set(want), _set(got)):
            return _all(wild_eq(v, got[k], wildcard, depth + 1) for k, v in dict_items(want))
        return eq(want, got)

    def mock_assert(mock: Any, name: str, args: tuple, kwargs: dict) -> None:
        """unittest.mock's call asserts, comparing what the mock recorded (the candidate's
        values, possibly) with what the tests expect by these rules: mock's own would use
        Python's == on the recorded arguments."""
        recorded = [call_parts(c) for c in _list(getattr_(mock, "call_args_list"))]
        wildcard = mock_any()
        if name == "assert_has_calls":
            expected = [call_parts(c) for c in _list(args[0] if args else kwargs.get("calls", ()))]
            any_order = kwargs.get("any_order", False) if _len(args) < 2 else args[1]
            if any_order:
                if _len(expected) == _len(recorded):  # a multiset match, each expected call to its own
                    rest, ok = _list(recorded), True
                    for e in expected:
                        for j in _range(_len(rest)):
                            if wild_eq(e, rest[j], wildcard):
                                del rest[j]
                                break
                        else:
                            ok = False
                            break
                else:
                    ok = _all(_any(wild_eq(e, r, wildcard) for r in recorded) for e in expected)
            else:
                n = _len(expected)
                ok = _any(wild_eq(expected, recorded[i:i + n], wildcard) for i in _range(_len(recorded) - n + 1))
        else:
            want = (_tuple(args), _dict(kwargs))
            if name == "assert_any_call":
                ok = _any(wild_eq(want, r, wildcard) for r in recorded)
            elif name == "assert_called_once_with":
                ok = _len(recorded) == 1 and wild_eq(want, recorded[0], wildcard)
            else:
                ok = _len(recorded) > 0 and wild_eq(want, recorded[-1], wildcard)
        if not ok:
            msg = f"{name}: the mock's calls differ"
            log(("fail", "hard", 0, "failed", msg))
            raise _assertion_error(msg)

    pristine_modules: dict[int, tuple[Any, dict[str, Any]]] = {}
    missing = object()

    def register_pristine(module: Any) -> None:
        """Remember `module`'s attributes as they are now (before the candidate runs)."""
        if _type(module) is module_type:
            pristine_modules[_id(module)] = (module, _dict(_object_getattribute(module, "__dict__")))
            learn_pandas(module)

    def someones(x: Any, depth: int = 0) -> bool:
        """Whether x is, or holds, an object of a class written in Python (the candidate's or
        the tests'), whose methods a library function would run: C objects (an open file, a
        socket) run nobody's code."""
        t = _type(x)
        if depth > 50:
            return True
        if t in scalar_types:
            return False
        if t is _list or t is _tuple or t is _set or t is _frozenset or t is deque:
            return _any(someones(v, depth + 1) for v in x)
        if t is _dict or t is OrderedDict:
            return _any(someones(k, depth + 1) or someones(v, depth + 1) for k, v in dict_items(x))
        if numpy_kind(t) == "array":
            return holds_objects(x) and someones(x.tolist(), depth + 1)
        return is_heap(t) and kind(x) is UNTRUSTED and not library_class(t) and not is_mark(t)

    def call(owner: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
        """`owner.name(...)` as the tests wrote it (`np.allclose(out, exp)`, `x.append(y)`).
        A module's function is the one it had before the candidate ran (a candidate that patches
        `math.isclose` while answering the first assert does not answer the next ones). A
        library's function given both an object nobody vouches for and a trusted value is
        refused: the object's methods would see the expected value. Methods of such objects,
        functions of the tests or the candidate, classes and builtins run as called."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        f = getattr_(owner, name)
        if _type(owner) is module_type:
            known = pristine_modules.get(_id(owner))
            if known is not None and known[0] is owner:
                original = known[1].get(name, missing)
                if original is not missing:
                    f = original
        elif _type(f) is method_type and is_heap(_type(owner)):
            # A heap subclass of a builtin is the value it stores (as in eq): the tests' call of
            # a method the builtin has (`got.startswith("2")`, `got.count(2)`) runs the
            # builtin's on that value, never an override of the program's, which would see the
            # expected value and answer for it. The tests' own subclasses keep their methods.
            base = reduce(owner)
            fn = method_func(f)
            if (_type(base) is not _type(owner) and kind(base) is not UNTRUSTED
                    and (_type(fn) is not function_type or code_category(getters["__code__"](fn)) == 0)):
                own = getattr_(_type(base), name, missing)
                if own is not missing:
                    owner, f = base, getattr_(base, name)
        return decide(owner, name, f, args, kwargs)

    fence_depth = [0]
    sys_dict = _object_getattribute(_sys, "__dict__")
    streams = ("stdin", "stdout", "stderr")

    def programs(f: Any) -> bool:
        """Whether calling f runs the program's code first."""
        t = _type(f)
        if t is method_type:
            f = method_func(f)
            t = _type(f)
        if t is function_type:
            return code_category(getters["__code__"](f)) == 0
        if t is builtin_type:
            return False
        return not library_class(f if _type in mro_of(t) else t)

    # The frame fence (_dictver.fence_frames, where built): every frame of the program's that
    # the tests enter, with a call or without one (an operator, a subscript, len(), iteration
    # of its generator, a property, a key function, a __del__), runs between frame_enter and
    # frame_leave: held state put back when it returns or yields. Where the state is not clean
    # when it starts (the tests patched a library: mock.patch, monkeypatch), that is the tests'
    # and stands; the program changing it further fails the step (fail closed).
    frames: list[Any] = [None, False]  # the switch; armed
    entry: list[Any] = [True, None, None]  # clean at entry; the state's token if not; sys' streams

    def set_frames(switch: Any) -> None:
        if frames[0] is None:
            frames[0] = switch

    def frame_enter() -> None:
        restore = pandas_state["restore"]
        entry[2] = [sys_dict.get(n) for n in streams]
        entry[0] = not restore(_check=True)
        if entry[0]:
            entry[1] = None
        else:
            # the tests changed held state (a library they used or patched): their dicts as they
            # are now are what the frame's end puts back, for this frame only (ClassEval_38: the
            # tests' openpyxl set its globals, the program's set more: an honest program failed);
            # the held lists and classes the program must leave as they are
            entry[1] = (restore(_token=True)[2:], restore(_rebase=True))

    def frame_leave() -> None:
        restore = pandas_state["restore"]
        if entry[0]:
            # put back until nothing is left: putting a value back drops the program's, whose
            # __del__ or weakref callback runs right then, inside this (red team rty)
            for _ in _range(4):
                if not restore(_check=True):
                    break
                restore()
            else:
                log(("fail", "hard", 0, "failed", "the program's state change outlived the restores"))
        else:
            token, undo = entry[1]
            try:
                for _ in _range(4):
                    if not restore(_check=True, _dicts=True):
                        break
                    restore(_dicts=True)
                else:
                    log(("fail", "hard", 0, "failed", "the program's state change outlived the restores"))
            finally:
                restore(_undo=undo)
            if restore(_token=True)[2:] != token:
                msg = "the program changed a library's state while the tests held it changed"
                log(("fail", "hard", 0, "failed", msg))
        for n, v in _zip(streams, entry[2]):
            if sys_dict.get(n) is not v:
                sys_dict[n] = v

    def frames_on() -> None:
        """Fence the program's frames (a step of the tests begins)."""
        if frames[0] is not None and pandas_state["restore"] is not None:
            frames[1] = True
            entry[0], entry[1] = True, None
            frames[0](frame_enter, frame_leave)

    def frames_off() -> None:
        if frames[1]:
            frames[1] = False
            if frames[0]():  # enter or leave failed somewhere: what they guard is unknown
                log(("fail", "hard", 0, "failed", "the frame fence failed"))

    def fence(f: Any, /, *args: Any, **kwargs: Any) -> Any:
        """A call into the program: held state put back as it returns, if clean when it began
        (docs/fidelity.md, rt15 #11); sys' streams stay as they were. Outermost call only.
        Where the frame fence is armed, it fences this call's frames (and every other), and a
        builtin the tests hand a value that is not a plain scalar runs as a program frame
        would (as_a_frame)."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        restore = pandas_state["restore"]
        if frames[1]:
            t = _type(f)
            if (t is function_type or (t is method_type and _type(method_func(f)) is function_type)
                    or f is tests_writes[0] or f is tests_writes[1]):
                return f(*args, **kwargs)  # Python code: the program's frames are fenced, the tests' run as written
            if ((t is builtin_type and builtin_self(f) is builtins_module) or (t is _type and f in builtin_classes)) and (
                    _all(_type(a) in scalar_types for a in args) and _all(_type(v) in scalar_types for v in kwargs.values())):
                return f(*args, **kwargs)  # a builtin given plain scalars: nobody's code runs
            return as_a_frame(f, args, kwargs)
        if restore is None or fence_depth[0] or not programs(f) or restore(_check=True):
            return f(*args, **kwargs)
        fence_depth[0] = 1
        held = [sys_dict.get(n) for n in streams]
        try:
            return f(*args, **kwargs)
        finally:
            fence_depth[0] = 0
            restore()
            for n, v in _zip(streams, held):
                if sys_dict.get(n) is not v:
                    sys_dict[n] = v

    # A callable that is not Python code (a builtin handed the program's object: max, list,
    # sorted, next, len; a C callable the program made: a functools.partial, a bound C method;
    # a class) runs code the program composed with no frame of its own for the frame fence to
    # see: an iterator of C callables (itertools.starmap over calendar.mdays.__setitem__), a
    # class whose __iter__ or __len__ is a functools.partial, a candidate that is a partial. So
    # the tests' call runs between frame_enter and frame_leave as a program frame does: held
    # state put back as it returns (red team rty V14, rtz). A builtin given plain scalars only
    # runs nobody's code; setattr and delattr are the tests' own writes, as an assignment is.
    builtins_module = modules["builtins"]
    tests_writes = (pristine["setattr"], pristine["delattr"])
    builtin_classes = frozenset(v for v in _object_getattribute(builtins_module, "__dict__").values()
                                if _type(v) is _type and not issubclass(v, BaseException))

    def as_a_frame(f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        outer = entry[:]  # a program frame inside (a generator's body) enters and leaves too
        frame_enter()
        mine = entry[:]
        try:
            return f(*args, **kwargs)
        finally:
            entry[:] = mine
            try:
                frame_leave()
            finally:
                entry[:] = outer

    def name_call(f: Any, /, *args: Any, **kwargs: Any) -> Any:
        """`name(...)` of a name the tests imported from a library (`from operator import eq`):
        call()'s rule, with no owner."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        name = getattr_(f, "__name__", "") if _type(f) in (function_type, builtin_type) else ""
        return decide(None, name if _type(name) is str else "", f, args, kwargs)

    def decide(owner: Any, name: str, f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        t = _type(f)
        if name in mock_asserts and is_mock(owner):
            return mock_assert(owner, name, args, kwargs)
        if is_mock_call(f):
            return f(*args, **kwargs)  # `mock.call(mock.ANY, "x")` builds an expected call: compares nothing
        where = iter_callers.get(name)
        if where is not None and _type(owner) is module_type and module_name(owner) == "itertools":
            index, key = where
            if _len(args) > index:
                args = (*args[:index], no_stop(args[index]), *args[index + 1:])
            elif key is not None and key in kwargs:
                kwargs = {**kwargs, key: no_stop(kwargs[key])}
        if t is method_type and kind(reduce(method_self(f))) is UNTRUSTED:
            return fence(f, *args, **kwargs)
        if t is method_type:
            t, fn = function_type, method_func(f)
        else:
            fn = f
        if t is function_type and code_category(getters["__code__"](fn)) != LIBRARY:
            return fence(f, *args, **kwargs)  # the tests' own or the candidate's
        if t is function_type and (getters["__code__"](fn).co_name, getters["__code__"](fn).co_filename.rpartition("/")[2]) in not_comparing:
            return f(*args, **kwargs)  # builds a copy or places a value: compares nothing (dataclasses.replace, mock.patch)
        if t is _type or (t is builtin_type and _type(builtin_self(f)) is module_type and module_name(builtin_self(f)) == "builtins"):
            return fence(f, *args, **kwargs)
        # A bound builtin method compares its owner's content with the arguments
        # (`[2, 3].index(got)`, `{2: 1}.get(got)`, `expected.count(got)`): the owner is one of
        # the values, unless the method only stores or moves (`results.append(obj)`).
        owner_part: tuple[Any, ...] = ()
        if t is builtin_type and _type(builtin_self(f)) is not module_type and name not in storing:
            held = reduce(builtin_self(f))
            owner_part = (_list(held) if _type(held) is _dict else held,)  # a dict compares its keys
        if not owner_part and _all(_type(a) in scalar_types for a in args) and _all(
                _type(v) in scalar_types for v in kwargs.values()):
            return f(*args, **kwargs)  # nothing but plain scalars: nobody's methods run
        values = [reduce(a) for a in args] + [reduce(v) for v in kwargs.values()] + _list(owner_part)
        if _any(someones(v) for v in values) and _any(trusted(v) and not neutral(v) for v in values):
            msg = f"{getattr_(f, '__name__', _type(f).__name__)}() given an object the grader does not trust and a value to compare it with"
            log(("fail", "hard", 0, "failed", msg))
            raise mismatch(msg)
        # A library function is given the value a program's subclass of a builtin or numpy
        # scalar stands for, as checked above: `np.isclose(got, 2)` with got a float64 subclass
        # whose __eq__ says yes computed `got == 2` by it (rtv).
        return f(*[as_value(a) for a in args], **{k: as_value(v) for k, v in kwargs.items()})

    def as_value(x: Any) -> Any:
        """x reduced when it is an object of a program's subclass of a builtin or numpy scalar
        (its stored value), else x itself."""
        t = _type(x)
        if t in scalar_types or not is_heap(t) or library_class(t):
            return x
        r = reduce(x)
        return r if _type(r) is not t and kind(r) is not UNTRUSTED else x

    def strict_abs(x: Any) -> Any:
        # The pristine abs() on the stored value: a patched builtins.abs or a shadowing global
        # `abs` cannot answer for the test; a custom class keeps its own __abs__ (a vector norm).
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        r = reduce(x)
        if _type(r) is Decimal:
            return dec_abs(r)  # the default context's rounding, not the candidate's
        return real_abs(r)

    def chain(idxs: tuple, left: Any, *thunks: Any) -> bool:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        for i, thunk in _zip(idxs, thunks):
            right = thunk()
            if not truth(cmp(i, left, right)):
                return False
            left = right
        return True

    def truth(x: Any) -> bool:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if _type(x) is _boolt:
            return x
        rx = reduce(x)
        t = _type(rx)
        if t in proxy_types or t is mappingproxy:
            pass  # their truth is their referent's
        elif numpy_kind(t) is not None and holds_objects(rx):
            pass  # numpy asks the element's own __bool__
        elif kind(rx) is not UNTRUSTED or not is_heap(t):
            return _bool(rx)  # plain, trusted, or a C type's own truth (a re.Match, a map object)
        msg = f"the truth value of a {_type(x).__name__} object is not trusted"
        log(("fail", "hard", 0, "failed", msg))
        raise mismatch(msg)

    def check(line: int, ok: bool, handled: bool = False) -> bool:
        """An assert's verdict (`ok` is a harness-made bool): a failure is logged first."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
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

    # line -> whether that assert's last evaluation completed and held (runner._step_verdicts)
    held: dict[int, bool] = {}
    _base_exception = BaseException

    def soft(line: int, cond: Any, evaluated: bool = False) -> None:
        """An assert of a top-level test function: while the top-level call of that function
        runs (the line is active), a failure is logged as this line's verdict and the function
        goes on; called any other way, it is logged and raises like any assert. `cond` is the
        test's lambda, or (evaluated) its value, inside a soft_block that takes what it raised."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if evaluated:
            ok, outcome, msg, err = cond, "failed", f"AssertionError (line {line})", None
        else:
            try:
                ok = cond()
            except _assertion_error as exc:
                ok, outcome, msg, err = False, "failed", describe(exc), exc
            except _exception as exc:  # noqa: BLE001 - the candidate crashed on this input
                ok, outcome, msg, err = False, "error", describe(exc), exc
            except _base_exception:  # SystemExit, KeyboardInterrupt, ...: entered, not completed
                held[line] = False
                raise
            else:
                outcome, msg, err = "failed", f"AssertionError (line {line})", None
        if ok:
            held[line] = True
            return
        if log(("is_active", line)):
            log(("fail", "soft", line, outcome, msg))
            return
        log(("fail", "hard", line, outcome, msg))
        if err is not None:
            raise err
        raised[0] = _assertion_error(msg)
        raise raised[0]

    raised: list[Any] = [None]  # what soft() raised itself (logged already)

    class SoftBlock:
        """Around an evaluated soft assert: what the test raised is its verdict, as soft()
        takes what the lambda raised (a failure goes on while the line is active)."""

        __slots__ = ("line",)

        def __init__(self, line: int) -> None:
            self.line = line

        def __enter__(self) -> None:
            raised[0] = None
            held[self.line] = False  # soft() says True if the evaluation completes and holds

        def __exit__(self, _kind: Any, exc: Any, _tb: Any) -> bool:
            if exc is None or exc is raised[0]:
                raised[0] = None
                return False
            if forked[0]:
                _exit(1)  # a process the candidate forked: see fork_flag
            if _isinstance(exc, _assertion_error):
                outcome = "failed"
            elif _isinstance(exc, _exception):
                outcome = "error"
            else:
                return False  # KeyboardInterrupt, SystemExit ...: as out of the lambda
            line = self.line
            if log(("is_active", line)):
                log(("fail", "soft", line, outcome, describe(exc)))
                return True
            log(("fail", "hard", line, outcome, describe(exc)))
            return False

    def mark_held(line: int, done: bool) -> None:
        """False before, True after an assert the tests guard themselves (SoftAsserts)."""
        held[line] = done

    class_runtime_error = RuntimeError
    _stop = StopIteration

    def no_stop(fn: Any) -> Any:
        """fn, with a StopIteration out of it turned into a RuntimeError (as PEP 479 does for
        generators): a C iterator calling it (map, filter, itertools.starmap ...) would take
        it for its own end, and the tests would see fewer values and compare nothing."""
        if fn is None:
            return None

        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except _stop as exc:
                raise class_runtime_error("StopIteration raised by a function the tests iterate over") from exc
        return guarded

    real_map, real_filter, real_iter = pristine["map"], pristine["filter"], pristine["iter"]
    # itertools functions that call a function, and where it is: (positional index, keyword)
    iter_callers = {"starmap": (0, None), "takewhile": (0, None), "dropwhile": (0, None), "filterfalse": (0, None),
                    "accumulate": (1, "func"), "groupby": (1, "key")}

    def iterate(f: Any, /, *args: Any, **kwargs: Any) -> Any:
        """`map(fn, ...)`, `filter(fn, ...)`, `iter(fn, sentinel)` as the tests wrote them."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if args and (f is real_map or f is real_filter or (f is real_iter and _len(args) == 2)):
            return f(no_stop(args[0]), *args[1:], **kwargs)
        return f(*args, **kwargs)

    def item(container: Any, key: Any) -> Any:
        """`container[key]` as the tests wrote it: a mapping the grader trusts, looked up with
        an object nobody vouches for as the key, is refused (its __eq__ would say which key
        it is); anything else is Python's subscript."""
        if _type(key) in scalar_types:
            return container[key]
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        k = reduce(key)
        if not someones(k):
            return container[key]  # a key of plain values (a tuple of ints): nobody's __eq__ runs
        held = reduce(container)
        if _type(held) is _dict or _type(held) is OrderedDict:
            if _any(trusted(x) and not neutral(x) for x in _list(held)):
                msg = f"a {_type(key).__name__} object used as a key of the tests' mapping is not trusted"
                log(("fail", "hard", 0, "failed", msg))
                raise mismatch(msg)
        return container[key]

    def match_subject(subject: Any, captures_only: bool) -> Any:
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        r = reduce(subject)
        if trusted(r):
            return r
        if captures_only:
            return subject
        msg = f"a match statement on a {_type(subject).__name__} object is not trusted"
        log(("fail", "hard", 0, "failed", msg))
        raise mismatch(msg)

    loop_runs = [0, 0]  # asserts of a top-level loop run so far, and that count when the loop began

    def loop(what: str, arg: Any = None, /) -> Any:
        """LoopAsserts' bookkeeping: "start" a top-level loop, count an assert that "ran" (its
        verdict passes through), "end" the loop: none of its asserts ran fails it."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        if what == "ran":
            loop_runs[0] += 1
            return arg
        if what == "start":
            loop_runs[1] = loop_runs[0]
            return None
        if loop_runs[0] == loop_runs[1]:
            msg = f"the loop at line {arg} ran none of its asserts"
            log(("fail", "hard", arg, "failed", msg))
            raise _assertion_error(msg)
        return None

    helpers = {TRUTH: truth, MATCH: match_subject, ITERATE: iterate, ITEM: item, CHAIN: chain, CMP: cmp, OP: op, IOP: iop, ABS: strict_abs,
               ASSERT: check, SOFT: soft, SOFT_BLOCK: SoftBlock, APPROX: mark_approx, CALL: call, NAMECALL: name_call, FENCE: fence, "__rlvr_strict_eq__": strict_eq,
               "__rlvr_reduce__": reduce, REGISTER: register_pristine, RESTORER: set_restorer, FORKED: forked, PLAIN: plain_call,
               FRAMES: (set_frames, frames_on, frames_off), LOOP: loop, HELD: mark_held, HELD_LINES: held}
    tables: dict[Any, dict[str, Callable[..., None]]] = {}
    table_for = unittest_asserts
    type_dict_get = class_dict
    from rlvr_harness.provenance import TESTS

    def tests_equality(testcase: Any, t: type) -> Any:  # addTypeEqualityFunc's fn for t, if the tests' own
        funcs = obj_dict(testcase).get("_type_equality_funcs")
        fn = _next((v for k, v in _list(dict_items(funcs)) if k is t), None) if _type(funcs) is _dict else None
        f = method_func(fn) if _type(fn) is method_type else fn
        return fn if _type(f) is function_type and code_category(getters["__code__"](f)) == TESTS else None

    def unittest_call(testcase: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
        """`self.<name>(...)` of a TestCase method, rewritten: the strict implementation."""
        if forked[0]:
            _exit(1)  # a process the candidate forked: see fork_flag
        failure = AssertionError
        for cls in mro_of(_type(testcase)):  # the class's failureException, not the instance's
            value = type_dict_get(cls).get("failureException")
            if value is not None:
                failure = value
                break
        if name == "assertEqual" and _len(args) >= 2 and _type(args[0]) is _type(args[1]):
            by = tests_equality(testcase, _type(args[0]))
            if by is not None:
                msg = args[2] if _len(args) > 2 else kwargs.get("msg")
                return by(args[0], args[1], msg=msg)
        table = tables.get(failure)
        if table is None:
            table = tables[failure] = table_for(helpers, log, failure)
        return table[name](*args, **kwargs)

    helpers[UNITTEST] = unittest_call
    return helpers


def unittest_asserts(helpers: dict[str, Any], log: Callable[[tuple[Any, ...]], Any],
                     failure: type[BaseException]) -> dict[str, Callable[..., None]]:
    """Every comparing assert method of unittest.TestCase, on the rules of `make_namespace`'s
    helpers (`helpers`): name -> function to set on a TestCase instance. A failure is logged
    before it raises `failure` (the instance's failureException). assertRaises, assertWarns,
    assertLogs and the identity asserts (assertIs, assertIsNone ...) compare nothing an object
    can answer for and stay unittest's own."""
    eq, cmp, truth, op = helpers["__rlvr_strict_eq__"], helpers[CMP], helpers[TRUTH], helpers[OP]
    reduce = helpers["__rlvr_reduce__"]
    _str, _repr, _type, _issubclass, _round, _abs, _isinstance = str, repr, type, issubclass, round, abs, isinstance
    _list, _tuple, _dict, _set, _frozenset, _len, _bytes = list, tuple, dict, set, frozenset, len, bytes
    _search = __import__("re").search
    mismatch = StrictMismatch

    def fail(default: str, msg: Any = None) -> BaseException:
        try:
            text = _str(msg) if msg is not None else default
        except Exception:  # noqa: BLE001 - a hostile __str__ in a message the candidate built
            text = default
        log(("fail", "unittest", 0, "failed", text[:500]))
        return failure(text)

    def show(x: Any) -> str:
        try:
            return _repr(x)[:200]
        except Exception:  # noqa: BLE001
            return f"<{_type(x).__name__}>"

    def holds(x: Any) -> bool:
        try:
            return truth(x)
        except mismatch:
            return False

    def test_fail(msg=None):  # noqa: ANN001 - TestCase.fail, which unittest's own helpers call
        raise fail("fail() called", msg)

    def assert_equal(first, second, msg=None):  # noqa: ANN001
        if not eq(first, second):
            raise fail(f"{show(first)} != {show(second)}", msg)

    def assert_not_equal(first, second, msg=None):  # noqa: ANN001
        if eq(first, second):
            raise fail(f"{show(first)} == {show(second)}", msg)

    def assert_true(expr, msg=None):  # noqa: ANN001
        if not holds(expr):
            raise fail(f"{show(expr)} is not true", msg)

    def assert_false(expr, msg=None):  # noqa: ANN001
        try:
            ok = not truth(expr)
        except mismatch:
            ok = False
        if not ok:
            raise fail(f"{show(expr)} is not false", msg)

    def close(first: Any, second: Any, places: Any, delta: Any) -> bool:
        if eq(first, second):
            return True
        try:
            diff = _abs(op(1, first, second))  # the strict subtraction: numbers only
        except (mismatch, TypeError):
            return False
        if delta is not None:
            return holds(cmp(3, diff, delta))
        return holds(cmp(0, _round(diff, 7 if places is None else places), 0))

    def assert_almost_equal(first, second, places=None, msg=None, delta=None):  # noqa: ANN001
        if not close(first, second, places, delta):
            raise fail(f"{show(first)} != {show(second)} within {delta if delta is not None else places or 7}", msg)

    def assert_not_almost_equal(first, second, places=None, msg=None, delta=None):  # noqa: ANN001
        if close(first, second, places, delta):
            raise fail(f"{show(first)} == {show(second)} within {delta if delta is not None else places or 7}", msg)

    def ordered(idx: int, sign: str) -> Callable[..., None]:
        def assert_order(a, b, msg=None):  # noqa: ANN001
            if not holds(cmp(idx, a, b)):
                raise fail(f"not {show(a)} {sign} {show(b)}", msg)
        return assert_order

    def assert_in(member, container, msg=None):  # noqa: ANN001
        if not holds(cmp(8, member, container)):
            raise fail(f"{show(member)} not found in {show(container)}", msg)

    def assert_not_in(member, container, msg=None):  # noqa: ANN001
        if not holds(cmp(9, member, container)):
            raise fail(f"{show(member)} unexpectedly found in {show(container)}", msg)

    def assert_is_instance(obj, cls, msg=None):  # noqa: ANN001
        # the type itself, not `obj.__class__` (a property of the candidate's could claim any class)
        if not _issubclass(_type(obj), cls):
            raise fail(f"{show(obj)} is not an instance of {cls!r}", msg)

    def assert_not_is_instance(obj, cls, msg=None):  # noqa: ANN001
        if _issubclass(_type(obj), cls):
            raise fail(f"{show(obj)} is an instance of {cls!r}", msg)

    def typed_equal(kind: Any) -> Callable[..., None]:
        def assert_typed(first, second, msg=None, seq_type=None):  # noqa: ANN001
            want = seq_type or kind
            if not (_isinstance(first, want) and _isinstance(second, want)) or not eq(first, second):
                raise fail(f"{show(first)} != {show(second)}", msg)
        return assert_typed

    def assert_sequence_equal(first, second, msg=None, seq_type=None):  # noqa: ANN001
        """Element by element, as unittest documents it: `(2, 3)` and `[2, 3]` are equal."""
        if seq_type is not None and not (_isinstance(first, seq_type) and _isinstance(second, seq_type)):
            raise fail(f"{show(first)} != {show(second)}", msg)
        a, b = reduce(first), reduce(second)
        if _type(a) in (_list, _tuple) and _type(b) in (_list, _tuple):
            a, b = _list(a), _list(b)
        if not eq(a, b):
            raise fail(f"{show(first)} != {show(second)}", msg)

    def assert_count_equal(first, second, msg=None):  # noqa: ANN001
        rest = _list(second)
        for x in _list(first):
            for i in range(_len(rest)):
                if eq(x, rest[i]):
                    del rest[i]
                    break
            else:
                raise fail(f"element counts differ: {show(x)}", msg)
        if rest:
            raise fail(f"element counts differ: {show(rest[0])}", msg)

    def text_of(text: Any) -> Any:
        """The str or bytes a regex assert searches (bytes with a bytes pattern, as re does)."""
        value = reduce(text)
        return value if _type(value) is _str or _type(value) is _bytes else None

    def searched(regex: Any, text: Any) -> Any:
        try:
            return _search(regex, text)
        except TypeError:  # a str pattern on bytes or the reverse: no match
            return None

    def assert_regex(text, regex, msg=None):  # noqa: ANN001
        value = text_of(text)
        if value is None or searched(regex, value) is None:
            raise fail(f"regex {regex!r} did not match {show(text)}", msg)

    def assert_not_regex(text, regex, msg=None):  # noqa: ANN001
        value = text_of(text)
        if value is None or searched(regex, value) is not None:
            raise fail(f"regex {regex!r} matched {show(text)}", msg)

    def assert_dict_contains_subset(subset, dictionary, msg=None):  # noqa: ANN001
        for k, v in _dict.items(subset):
            if not holds(cmp(8, k, _list(dictionary))) or not eq(dictionary[k], v):
                raise fail(f"{show(k)} missing or different", msg)

    table = {
        "fail": test_fail,
        "assertEqual": assert_equal, "assertEquals": assert_equal, "failUnlessEqual": assert_equal,
        "assertNotEqual": assert_not_equal, "assertNotEquals": assert_not_equal, "failIfEqual": assert_not_equal,
        "assertTrue": assert_true, "assert_": assert_true, "failUnless": assert_true,
        "assertFalse": assert_false, "failIf": assert_false,
        "assertAlmostEqual": assert_almost_equal, "assertAlmostEquals": assert_almost_equal,
        "failUnlessAlmostEqual": assert_almost_equal,
        "assertNotAlmostEqual": assert_not_almost_equal, "assertNotAlmostEquals": assert_not_almost_equal,
        "failIfAlmostEqual": assert_not_almost_equal,
        "assertGreater": ordered(4, ">"), "assertGreaterEqual": ordered(5, ">="),
        "assertLess": ordered(2, "<"), "assertLessEqual": ordered(3, "<="),
        "assertIn": assert_in, "assertNotIn": assert_not_in,
        "assertIsInstance": assert_is_instance, "assertNotIsInstance": assert_not_is_instance,
        "assertListEqual": typed_equal(_list), "assertTupleEqual": typed_equal(_tuple),
        "assertSetEqual": typed_equal((_set, _frozenset)), "assertDictEqual": typed_equal(_dict),
        "assertSequenceEqual": assert_sequence_equal, "assertMultiLineEqual": typed_equal(_str),
        "assertCountEqual": assert_count_equal, "assertItemsEqual": assert_count_equal,
        "assertRegex": assert_regex, "assertRegexpMatches": assert_regex,
        "assertNotRegex": assert_not_regex, "assertNotRegexpMatches": assert_not_regex,
        "assertDictContainsSubset": assert_dict_contains_subset,
    }
    return table
