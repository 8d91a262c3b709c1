"""Test discovery from source alone. Used outside the sandbox to know what must pass, and
inside it to run each check; the same function on both sides keeps the two in step."""

from __future__ import annotations

import ast
import threading

# CPython 3.11 builds AST objects with per-interpreter (not per-thread) recursion bookkeeping:
# parsing from many grader threads at once intermittently raises "SystemError: AST
# constructor recursion depth mismatch" (python/cpython#106905), which killed a
# --concurrency 64 run. Parsing is cheap; serialise it.
_PARSE_LOCK = threading.Lock()


def _parse(source: str, filename: str) -> ast.Module:
    with _PARSE_LOCK:
        return ast.parse(source, filename=filename)


def _is_check(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Assert):
        return True
    # A bare call at top level, e.g. HumanEval's `check(candidate)` or MBPP's helpers.
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)


def assert_checks(tests: str) -> list[tuple[str, list[ast.stmt], bool]]:
    """Split assert-style test code into ordered steps: (id, statements, is_check).

    Setup statements (imports, defs, assignments) run as they come; each top-level assert or
    bare call is one check with id `check:<line>`. Raises SyntaxError for broken tests.
    """
    tree = _parse(tests, "tests.py")
    steps: list[tuple[str, list[ast.stmt], bool]] = []
    for stmt in tree.body:
        if _is_check(stmt):
            steps.append((f"check:{stmt.lineno}", [stmt], True))
        else:
            steps.append((f"setup:{stmt.lineno}", [stmt], False))
    return steps


def assert_ids(tests: str) -> list[str]:
    return [sid for sid, _, is_check in assert_checks(tests) if is_check]


def pytest_ids(tests: str, module: str = "test_solution.py") -> list[str]:
    """Test ids pytest would collect from a module (before parametrization), found statically."""
    tree = _parse(tests, module)
    ids: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            ids.append(f"{module}::{node.name}")
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            has_init = any(
                isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in node.body
            )
            if has_init:
                continue
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                    ids.append(f"{module}::{node.name}::{sub.name}")
    return ids


def base_id(nodeid: str) -> str:
    """`mod.py::test_x[1-2]` -> `mod.py::test_x`: parametrized cases count toward their base."""
    return nodeid.split("[", 1)[0]
