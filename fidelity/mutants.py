"""Broken variants of a reference solution, made deterministically from its AST: the same input
always gives the same mutant, so a rerun compares the same programs. Each one should fail its
tests; the reference grader decides whether it does (a mutant the tests cannot tell from the
solution passes both graders and they agree)."""

from __future__ import annotations

import ast
import copy

KINDS = ("stub", "return-none", "off-by-one")


def _target(tree: ast.Module, entry: str | None) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function to break: `entry` (a top-level function or a method of a top-level class),
    else the last top-level function (MBPP solutions define helpers first)."""
    funcs = (ast.FunctionDef, ast.AsyncFunctionDef)
    found = []
    for node in tree.body:
        if isinstance(node, funcs):
            found.append(node)
        elif isinstance(node, ast.ClassDef):
            found.extend(n for n in node.body if isinstance(n, funcs))
    if entry is not None:
        named = [f for f in found if f.name == entry]
        return named[-1] if named else None
    tops = [n for n in tree.body if isinstance(n, funcs)]
    return tops[-1] if tops else None


def _docstring(fn: ast.AST) -> list[ast.stmt]:
    body = fn.body  # type: ignore[attr-defined]
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return [body[0]]
    return []


class _OffByOne(ast.NodeTransformer):
    """+1 on the first int literal (not a bool, not inside a docstring); failing that, the first
    `<`/`>` made `<=`/`>=` (or back)."""

    def __init__(self) -> None:
        self.done = False

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if not self.done and type(node.value) is int:
            self.done = True
            return ast.copy_location(ast.Constant(node.value + 1), node)
        return node


class _FlipCompare(ast.NodeTransformer):
    SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}

    def __init__(self) -> None:
        self.done = False

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if not self.done:
            for i, op in enumerate(node.ops):
                if type(op) in self.SWAP:
                    node.ops[i] = self.SWAP[type(op)]()
                    self.done = True
                    break
        return node


def mutate(source: str, kind: str, entry: str | None = None) -> str | None:
    """The `kind` mutant of `source` (see KINDS), or None when it has no such mutant (no
    function to break, nothing to shift) or the source does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    tree = copy.deepcopy(tree)
    fn = _target(tree, entry)
    if fn is None:
        return None
    doc = _docstring(fn)
    if kind == "stub":
        fn.body = doc + [ast.Raise(exc=ast.Call(ast.Name("NotImplementedError", ast.Load()), [], []), cause=None)]
    elif kind == "return-none":
        fn.body = doc + [ast.Return(ast.Constant(None))]
    elif kind == "off-by-one":
        body = fn.body[len(doc):]
        holder = ast.Module(body=body, type_ignores=[])
        t = _OffByOne()
        t.visit(holder)
        if not t.done:
            f = _FlipCompare()
            f.visit(holder)
            if not f.done:
                return None
        fn.body = doc + holder.body
    else:
        raise ValueError(f"unknown mutant kind {kind!r}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
