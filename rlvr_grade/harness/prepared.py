"""Asserts-style tests prepared once per distinct test text, outside the check.

Splitting, strict-rewriting and compiling a HumanEval test costs ~4 ms of a check child's CPU,
and an RL batch grades each problem's tests once per rollout (8-64 times). The local backend
prepares them in the grader instead (`pack`, an LRU keyed by the test text) and ships the
code objects marshalled in the payload; the child loads them (`unpack`, ~0.1 ms) before any
candidate code runs. The result is the same as `runner.prepare_asserts` run in the child: it
is that function, run earlier. Marshal is specific to the interpreter version, so the blob is
tagged and a child on another interpreter (a remote backend) ignores it and prepares itself.
"""

from __future__ import annotations

import base64
import marshal
import sys
from typing import Any

from rlvr_grade.textcache import TextCache

FORMAT = 2  # (steps, loops, names, imports)
TAG = f"{sys.implementation.cache_tag}/{sys.hexversion:x}/{FORMAT}"
# The grader keeps at most this much prepared test code (HumanEval's: ~5 KB a problem).
_cache = TextCache(32 << 20, size_of=lambda v: len(v["blob"]) if v else 0)
# Test texts seen once: a text is prepared here from its second check on. The first check of a
# text prepares it in its own child, in parallel, so a run of distinct tests (MBPP) does not
# move all that work onto the grader's one interpreter.
_seen = TextCache(8 << 20, size_of=lambda v: 16)


def _prepare(tests: str) -> dict[str, str] | None:
    from rlvr_grade.harness.runner import prepare_asserts
    from rlvr_grade.harness.splitting import PARSE_LOCK

    try:
        with PARSE_LOCK:  # compile() of an AST shares parse's 3.11 hazard (see splitting.py)
            steps = prepare_asserts(tests)
        return {"tag": TAG, "blob": base64.b64encode(marshal.dumps(steps)).decode("ascii")}
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        return None


def pack(tests: str) -> dict[str, str] | None:
    """The prepared form of `tests` for a payload's "prepared" key; None the first time a text
    is seen (its child prepares it) and when the tests do not prepare (a syntax error: the
    child then reports it as it always has)."""
    return _cache.get(tests, _prepare) if _seen.seen(tests) else None


def unpack(value: Any) -> tuple[list, list, list, list] | None:
    """The (steps, loops, names, imports) a payload carries, or None when it carries none this
    interpreter can load."""
    if not isinstance(value, dict) or value.get("tag") != TAG:
        return None
    try:
        steps, loops, used, imports = marshal.loads(base64.b64decode(value["blob"]))
    except (ValueError, TypeError, EOFError, KeyError):
        return None
    return steps, loops, used, imports


def clear() -> None:
    _cache.clear()
    _seen.clear()
