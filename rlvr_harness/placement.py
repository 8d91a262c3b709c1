"""Where an asserts check's program runs: in a process of its own (split; docs/fidelity.md, "The
program in a process of its own") or in the tests' process, decided from the tests' text alone
(the program cannot choose). Tests that reach into the program's process stay with it: they
patch or mock (`mock.patch`, `monkeypatch`, `setattr`, any `x.y = ...` of theirs), capture its
output or input (`sys.stdout`, `contextlib.redirect_stdout`, `io`), seed the random state it
draws from, or hand its objects to libraries that look inside them (`dataclasses`, `inspect`,
`copy`, `pickle`, `asyncio`, `weakref`, `gc`, threads). docs/test-styles.md lists the rule.

Sealed: the standard library only."""

from __future__ import annotations

import ast
import builtins

# a top-level module the tests import that reaches into the process the program runs in
IN_PROCESS_MODULES = frozenset((
    "unittest", "mock", "dataclasses", "inspect", "copy", "pickle", "copyreg", "asyncio", "contextlib",
    "io", "sys", "builtins", "warnings", "logging", "gc", "weakref", "threading", "multiprocessing", "concurrent",
    "signal", "faulthandler", "tracemalloc", "types", "importlib", "ctypes", "atexit", "traceback",
))
# a name the tests call or read that does
IN_PROCESS_NAMES = frozenset((
    "setattr", "delattr", "monkeypatch", "capsys", "capfd", "caplog", "patch", "mock", "Mock", "MagicMock",
    "globals", "locals", "vars", "eval", "exec", "seed",
))
IN_PROCESS_ATTRIBUTES = frozenset(("seed", "patch", "stdout", "stderr", "stdin", "argv", "modules"))


def in_process_reason(tests: str) -> str | None:
    """Why these tests must run in the program's process, or None: they may run apart from it.
    Unparsable tests: None (the check fails on its own)."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError):
        return None
    own = _bound(tree)
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        reason = _reason(node) or _subclass(node, own)
        if reason is not None:
            return reason
        stack.extend(ast.iter_child_nodes(node))
    return None


def _reason(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] in IN_PROCESS_MODULES:
                return f"the tests import {alias.name}"
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        if node.module.split(".")[0] in IN_PROCESS_MODULES:
            return f"the tests import from {node.module}"
    elif isinstance(node, ast.Name) and node.id in IN_PROCESS_NAMES:
        return f"the tests use {node.id}"
    elif isinstance(node, ast.Attribute):
        if not isinstance(node.ctx, ast.Load):
            return "the tests set an attribute"
        if node.attr in IN_PROCESS_ATTRIBUTES:
            return f"the tests use .{node.attr}"
    return None


def _bound(tree: ast.AST) -> set[str]:
    """Every name the tests bind themselves (definitions, imports, assignments)."""
    names: set[str] = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
    return names


def _subclass(node: ast.AST, own: set[str]) -> str | None:
    """A class of the tests' deriving from a name they do not bind: the program's class, whose
    subclass would be a class of both processes."""
    if isinstance(node, ast.ClassDef):
        for base in node.bases:
            if not (isinstance(base, ast.Name) and base.id in own) and not isinstance(base, ast.Attribute):
                return "the tests subclass a class of the program's"
    return None
