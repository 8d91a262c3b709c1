"""Test discovery from source alone. Used outside the sandbox to know what must pass, and
inside it to run each check; the same function on both sides keeps the two in step."""

from __future__ import annotations

import _thread
import ast

# CPython 3.11 builds AST objects with per-interpreter (not per-thread) recursion bookkeeping:
# parsing from many grader threads at once intermittently raises "SystemError: AST
# constructor recursion depth mismatch" (python/cpython#106905), which killed a
# --concurrency 64 run. compile() of an AST tree converts it back under the same bookkeeping.
# Parsing is cheap; serialise both (re-entrant: a holder may call parse_locked).
PARSE_LOCK = _thread.RLock()  # _thread: see languages._VERSIONS_LOCK


def parse_locked(source: str, filename: str) -> ast.Module:
    """ast.parse for code that may run on any of the grader's threads (see PARSE_LOCK)."""
    with PARSE_LOCK:
        return ast.parse(source, filename=filename)


def _is_check(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Assert):
        return True
    if is_loop_check(stmt):
        return True
    # A bare call at top level, e.g. HumanEval's `check(candidate)` or MBPP's helpers.
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)


LOOPS = (ast.For, ast.While, ast.AsyncFor)


def is_loop_check(stmt: ast.stmt) -> bool:
    """A top-level loop with an assert of its own (a table of cases, `for x, y in cases:
    assert f(x) == y`): one check, which fails unless at least one of those asserts ran."""
    return isinstance(stmt, LOOPS) and bool(_assert_lines(stmt))


def assert_checks(tests: str) -> list[tuple[str, list[ast.stmt], bool]]:
    """Split assert-style test code into ordered steps: (id, statements, is_check).

    Setup statements (imports, defs, assignments) run as they come; each top-level assert or
    bare call is one check with id `check:<line>`. Raises SyntaxError for broken tests.
    """
    tree = parse_locked(tests, "tests.py")
    steps: list[tuple[str, list[ast.stmt], bool]] = []
    for stmt in tree.body:
        if _is_check(stmt):
            steps.append((f"check:{stmt.lineno}", [stmt], True))
        else:
            steps.append((f"setup:{stmt.lineno}", [stmt], False))
    return steps


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """ast.iter_child_nodes(node) as a list, in its order, without its two generators: the
    passes over the tests (prepare_asserts, once per test text) visit every node, and the
    generators were ~40% of a walk's time."""
    out: list[ast.AST] = []
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend([v for v in value if isinstance(v, ast.AST)])
    return out


def is_literal(node: ast.AST) -> bool:
    """A constant, or a list/tuple/set/dict of them (at any depth): no name, call, assert or
    operator inside. Test data is mostly such literals (a HumanEval+ test: ~20k nodes of them),
    and the passes over test code skip them whole instead of visiting every element. Walked
    with a stack: data nested deeper than the recursion limit is still data."""
    kind = type(node)
    if kind is ast.Constant:
        return True
    stack = [node]
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Constant:
            continue
        if kind is ast.List or kind is ast.Tuple or kind is ast.Set:
            stack.extend(n.elts)
        elif kind is ast.Dict:
            if None in n.keys:
                return False
            stack.extend(n.keys)
            stack.extend(n.values)
        else:
            return False
    return True


# How deep test code may nest (AST levels) for the harness's passes over it: CPython's own
# compiler stops near 3,000 with the default recursion limit (1,000 x its scale of 3), so an
# honest test deeper than this does not compile anywhere.
MAX_DEPTH = 4000


def depth(tree: ast.AST) -> int:
    """The deepest nesting of `tree` (AST levels), walked with a stack."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > deepest:
            deepest = d
        stack.extend((child, d + 1) for child in child_nodes(node))
    return deepest


class deeper:  # noqa: N801 - used as `with deeper(tree):`
    """A recursion budget for the passes over deeply nested test code (`1+1+...+1` with 600
    terms is 600 nested BinOps; a NodeTransformer takes ~3 Python frames a level, compile()
    of an AST object one C level): the limit is raised to what `tree` needs, for the time of
    the `with` only, never past MAX_DEPTH levels (RecursionError beyond, as CPython's own)."""

    def __init__(self, tree: ast.AST) -> None:
        import sys

        self._get, self._set = sys.getrecursionlimit, sys.setrecursionlimit
        levels = depth(tree)
        if levels > MAX_DEPTH:
            raise RecursionError(f"the tests nest {levels} levels deep (more than {MAX_DEPTH}: no compiler takes it)")
        self.need = 4 * levels + 200
        self.old = 0

    def __enter__(self) -> deeper:
        self.old = self._get()
        if self.need + self.old > self.old:
            self._set(self.old + self.need)
        return self

    def __exit__(self, *exc: object) -> None:
        self._set(self.old)


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _assert_lines(fn: ast.FunctionDef | ast.For | ast.While | ast.AsyncFor) -> list[int]:
    """Line of every assert in a function's own body, or a loop's (nested defs and classes excluded)."""
    lines: list[int] = []
    stack: list[ast.AST] = list(fn.body) + list(getattr(fn, "orelse", []))
    while stack:
        node = stack.pop()
        if isinstance(node, _NESTED):
            continue
        if type(node) is ast.Assert:
            lines.append(node.lineno)
        stack.extend([c for c in child_nodes(node) if not is_literal(c)])
    return sorted(set(lines))


def soft_functions(tree: ast.Module) -> dict[str, list[int]]:
    """Top-level test functions whose own asserts count one by one (HumanEval's `check`):
    those called by a top-level bare call, name -> assert lines. A function only other
    functions call (evalplus's `assertion` helper) is not one: its asserts raise, and fail
    whatever test called it. The last definition of a name wins, as at run time."""
    called = {
        stmt.value.func.id
        for stmt in tree.body
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
    }
    found: dict[str, list[int]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name in called:
            lines = _assert_lines(stmt)
            if lines:
                found[stmt.name] = lines
            else:
                found.pop(stmt.name, None)
    return found


def soft_call(stmt: ast.stmt, soft: dict[str, list[int]]) -> list[int] | None:
    """The assert lines a top-level bare call `check(...)` stands for, or None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name):
        return soft.get(stmt.value.func.id)
    return None


def assert_ids(tests: str) -> list[str]:
    """Expected test ids: `check:<line>` per top-level assert or bare call; a call of a test
    function with asserts inside (HumanEval's `check(candidate)`) expands to one id per assert,
    `check:<call line>:<assert line>`, so `--reward fraction` counts HumanEval's asserts."""
    tree = parse_locked(tests, "tests.py")
    soft = soft_functions(tree)
    ids: list[str] = []
    for stmt in tree.body:
        if not _is_check(stmt):
            continue
        lines = soft_call(stmt, soft)
        if lines:
            ids.extend(f"check:{stmt.lineno}:{a}" for a in lines)
        else:
            ids.append(f"check:{stmt.lineno}")
    return ids


def _is_testcase(node: ast.ClassDef) -> bool:
    """A unittest.TestCase subclass: pytest collects it whatever its name (ClassEval's
    `AccessGatewayFilterTestFilter(unittest.TestCase)`)."""
    for base in node.bases:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        if name in ("TestCase", "IsolatedAsyncioTestCase"):
            return True
    return False


def pytest_ids(tests: str, module: str = "test_solution.py") -> list[str]:
    """Test ids pytest would collect from a module (before parametrization), found statically."""
    tree = parse_locked(tests, module)
    ids: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            ids.append(f"{module}::{node.name}")
        elif isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or _is_testcase(node)):
            has_init = any(
                isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in node.body
            )
            if has_init:
                continue
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                    ids.append(f"{module}::{node.name}::{sub.name}")
    return ids


_PYTEST_MARKS = {"xfail": "xfail", "skip": "skip", "skipif": "skip"}
_UNITTEST_MARKS = {"expectedFailure": "xfail", "skip": "skip", "skipIf": "skip", "skipUnless": "skip"}


def _marks_in(nodes: list[ast.expr]) -> frozenset[str]:
    """"xfail" / "skip" for every mark written anywhere in these expressions (decorators, a
    `pytestmark` value, `pytest.param(..., marks=...)` inside a parametrize): `pytest.mark.x`,
    `mark.x`, `unittest.skipIf`, a bare `expectedFailure` imported from unittest."""
    found: set[str] = set()
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Attribute):
                owner = n.value
                if (n.attr in _PYTEST_MARKS and (isinstance(owner, ast.Attribute) and owner.attr == "mark"
                                                  or isinstance(owner, ast.Name) and owner.id == "mark")):
                    found.add(_PYTEST_MARKS[n.attr])
                elif n.attr in _UNITTEST_MARKS and isinstance(owner, ast.Name) and owner.id == "unittest":
                    found.add(_UNITTEST_MARKS[n.attr])
            elif isinstance(n, ast.Name) and n.id in ("expectedFailure", "skipIf", "skipUnless"):
                found.add(_UNITTEST_MARKS[n.id])
    return frozenset(found)


def pytest_marks(tests: str, module: str = "test_solution.py") -> dict[str, frozenset[str]]:
    """The xfail and skip marks the *test text* puts on each test id of pytest_ids: its own
    decorators, its class's, the module's `pytestmark`. Read from the source alone, outside
    the sandbox: a mark the candidate's code adds at run time (a `pytestmark` it exports to
    `from solution import *`, `pytest.skip()` in a call) is never one of these."""
    tree = parse_locked(tests, module)
    module_marks = _marks_in([n.value for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
                              and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))])
    out: dict[str, frozenset[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            marks = module_marks | _marks_in(node.decorator_list)
            if marks:
                out[f"{module}::{node.name}"] = marks
        elif isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or _is_testcase(node)):
            own = module_marks | _marks_in(node.decorator_list) | _marks_in(
                [n.value for n in node.body if isinstance(n, ast.Assign) and n.value is not None
                 and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)])
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                    marks = own | _marks_in(sub.decorator_list)
                    if marks:
                        out[f"{module}::{node.name}::{sub.name}"] = marks
    return out


def base_id(nodeid: str) -> str:
    """`mod.py::test_x[1-2]` -> `mod.py::test_x`: parametrized cases count toward their base."""
    return nodeid.split("[", 1)[0]
