"""LeetCode (agentica-project/rllm's test_code_leetcode.json, 200 problems): the reference
`Solution` classes must pass, their broken variants (fidelity/mutants.py, applied to the method
the tests call) must fail. Reference: the way rllm's own reward runs these rows (its
`leetcode_check_correctness`: the dataset's prelude of imports and ListNode/TreeNode helpers, the
solution, the `check(...)` code, one plain Python process, exit 0 = pass), unsandboxed.
rlvr-grade: `--preset leetcode` (default 10 CPU seconds).

The CodeContests rows (stdin/stdout, no solutions) have no program to grade: not compared."""

from __future__ import annotations

import ast
import json
import re

from fidelity.context import Context
from fidelity.core import Case, Verdict
from fidelity.mutants import KINDS, mutate
from fidelity.refrun import RUNNER, exit_verdict, run_cached, run_python

GROUPS = {"leetcode/reference": "rllm check()", **{f"leetcode/{k}": "rllm check()" for k in KINDS}}
ARGS = ("--preset", "leetcode")
TIMEOUT = 30.0

# The names rllm's LeetCode runner defines before a solution (rllm/rewards/code_utils/utils.py,
# BASE_IMPORTS + BASE_LEETCODE_IMPORTS): its reference verdicts are the ones with them. Its
# `import numpy as np` / `import pandas as pd` cost ~1 s per program and no row of the shipped
# file uses them: they are added only to a program that names `np` or `pd`.
HEAVY = "import numpy as np\nimport pandas as pd\n"
HEAVY_NAMES = re.compile(r"\b(np|pd)\.")
PRELUDE = """\
import bisect, collections, copy, datetime, functools, heapq, io, itertools, math, operator, os
import random, re, string, sys
from bisect import bisect, bisect_left, bisect_right, insort
from collections import Counter, OrderedDict, defaultdict, deque
from copy import deepcopy
from functools import cache, cmp_to_key, lru_cache, partial, reduce
from heapq import heapify, heappop, heappush, heapreplace, merge, nlargest, nsmallest
from itertools import (accumulate, chain, combinations, count, cycle, groupby, islice, pairwise,
                       permutations, product, repeat, zip_longest)
from math import atan2, ceil, comb, factorial, floor, gcd, inf, isqrt, log, log2, log10, pi, prod, sqrt
from operator import iand, itemgetter, or_, sub, xor
from os.path import commonprefix
from random import randrange, shuffle
from re import search as re_search
from string import ascii_lowercase, ascii_uppercase
from time import time
from typing import (Any, Callable, Deque, Dict, Generator, Iterable, Iterator, List, Optional, Set,
                    Tuple, Union)


class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next


def list_node(values):
    head = tail = ListNode()
    for v in values:
        tail.next = ListNode(v)
        tail = tail.next
    return head.next


def is_same_list(a, b):
    while a and b:
        if a.val != b.val:
            return False
        a, b = a.next, b.next
    return a is None and b is None


class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right


def tree_node(values):
    if not values:
        return None
    root = TreeNode(values[0])
    queue = deque([root])
    i = 1
    while queue and i < len(values):
        node = queue.popleft()
        if i < len(values) and values[i] is not None:
            node.left = TreeNode(values[i])
            queue.append(node.left)
        i += 1
        if i < len(values) and values[i] is not None:
            node.right = TreeNode(values[i])
            queue.append(node.right)
        i += 1
    return root


def is_same_tree(p, q):
    if not p and not q:
        return True
    if not p or not q:
        return False
    return p.val == q.val and is_same_tree(p.left, q.left) and is_same_tree(p.right, q.right)
"""


def _entry(tests: str) -> str | None:
    """The method `check(Solution().<name>)` calls."""
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check"
                and node.args and isinstance(node.args[0], ast.Attribute)):
            return node.args[0].attr
    return None


def collect(ctx: Context) -> list[Case]:
    with open(ctx.path("leetcode", "test_code_leetcode.json")) as fh:
        problems = json.load(fh)
    cases = []
    for kind in ("reference", *KINDS):
        for n, p in enumerate(problems):
            tests = p["tests"]["functional"]
            code = p["solutions"] if kind == "reference" else mutate(p["solutions"], kind, _entry(tests))
            if code is None:
                continue
            row = {"completion": code, "tests": {"functional": tests}}
            heavy = HEAVY if HEAVY_NAMES.search(code + tests) else ""
            program = heavy + PRELUDE + "\n" + code + "\n" + tests + "\n"
            cases.append(Case(f"leetcode/{kind}", f"lc{n:03d}", row, ARGS, {"program": program}, code))
    return ctx.take(cases)


def reference(ctx: Context, cases: list[Case]) -> dict[str, Verdict]:
    cache = ctx.cache("leetcode")
    by_uid = {c.uid: c for c in cases}

    def run(uid: str) -> Verdict:
        return exit_verdict(run_python(ctx.ref_python, {"program.py": by_uid[uid].ref["program"]},
                                       ["program.py"], TIMEOUT * ctx.budget))

    items = [(c.uid, cache.key("rllm-leetcode", RUNNER, TIMEOUT * ctx.budget, c.ref["program"])) for c in cases]
    return run_cached(items, run, cache, ctx.jobs, ctx.progress("leetcode reference"))


def references(ctx: Context) -> dict[str, str]:
    return dict(GROUPS)
