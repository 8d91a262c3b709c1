"""Asserts-style tests prepared once per distinct test text, by the first check that needs them.

Splitting, strict-rewriting and compiling a HumanEval test costs ~3 ms (a HumanEval+ test
~100 ms), and an RL batch grades each problem's tests once per rollout (8-64 times). A text of
at most MAX_GRADER_TESTS characters is prepared by the grader before its first check (`pack`):
in a fresh check child the same work cost ~6 ms and ~460 page faults (its allocations land on
pages it must first copy or fault in), in the grader ~3.4 ms. A bigger text's first check
prepares it in its own child (in parallel with the other slots, not on the grader's one
interpreter) and sends the code objects back, marshalled, on its setup pipe: that is before
any candidate code runs in it, so what comes back is the harness's own work (`make_here`). The grader keeps them (`store`, an LRU keyed by the test text) and ships them in
the payload of every later check of that text (`pack`); that child loads them (`unpack`,
~0.1 ms) instead of preparing. The result is the same as `runner.prepare_asserts` run in each
child: it is that function, run once. Marshal is specific to the interpreter version, so the
blob is tagged and a child on another interpreter ignores it and prepares itself.
"""

from __future__ import annotations

import base64
import marshal
import sys
from types import CodeType
from typing import Any, Callable

from rlvr_harness.files import WORKDIR_SOLUTION
from rlvr_harness.textcache import TextCache
from rlvr_harness.wire import CheckPayload, Packed

FORMAT = 6  # (steps, loops, names, imports); a soft step carries (lines, first, last); imports: also attribute chains;
# names: also `name.attr` for every attribute read of a name; 6: bare-name library calls (strict NAMECALL)
TAG = f"{sys.implementation.cache_tag}/{sys.hexversion:x}/{FORMAT}"
MAX_BLOB = 16 << 20  # a bigger one is not sent back (the setup pipe's reader caps what it keeps)
MAX_PROGRAM = 64 << 10  # a bigger candidate is compiled in its own child (pack_program)
MAX_GRADER_TESTS = 16 << 10  # a bigger test text is prepared by its first check's child (HumanEval's: <= 2 KB)
# The grader keeps at most this much prepared test code (HumanEval's: ~5 KB a problem).
_cache = TextCache(32 << 20, size_of=lambda v: len(v.blob))
# In a check child: what make_here prepared, for runner.run_asserts (one check per child).
_made_here: list[tuple[list, list, list, list]] = []


def pack(tests: str, prepare: Callable[[str], Any] | None = None) -> Packed | None:
    """The prepared form of `tests` for a payload's `prepared`, or None when none is held
    yet (the check's child then prepares the tests and sends them back: see make_here).
    `prepare` (runner.prepare_asserts without its deeper retry: no recursion limit of the
    grader's threads changes) prepares a text of at most MAX_GRADER_TESTS here first; one it
    cannot prepare (broken tests, nested too deep) is left to the child, which says why."""
    held = _cache.peek(tests)
    if held is None and prepare is not None and len(tests) <= MAX_GRADER_TESTS:
        try:
            blob = _blob(prepare(tests))
        except Exception:  # noqa: BLE001 - the check's child prepares it and reports what is wrong
            return None
        if blob is not None:
            held = Packed(TAG, blob.decode())
            store(tests, held)
    return held


def _blob(steps: tuple[list, list, list, list]) -> bytes | None:
    blob = base64.b64encode(marshal.dumps(steps))
    return blob if len(blob) <= MAX_BLOB else None


def store(tests: str, value: Packed | None) -> None:
    """Keep what a check's child sent back for `tests` (ignored unless this interpreter made it)."""
    if isinstance(value, Packed) and value.tag == TAG:
        _cache.get(tests, lambda _t: value)


def make_here(tests: str, prepare_asserts: Callable[[str], Any]) -> bytes | None:
    """In a check child, before candidate code: prepare `tests` for this check with
    `prepare_asserts` (runner.prepare_asserts: passed in, this module is below the runner) and
    return them as a blob to send back, or None (the tests do not prepare: run_asserts reports
    why)."""
    try:
        steps = prepare_asserts(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        return None
    _made_here.append(steps)
    return _blob(steps)


def steps_for(payload: CheckPayload) -> tuple[list, list, list, list] | None:
    """The (steps, loops, names, imports) of this check: made in this child, or shipped in the
    payload by the grader; None when neither (the caller prepares)."""
    if _made_here:
        return _made_here.pop()
    return unpack(payload.prepared)


def unpack(value: Packed | None) -> tuple[list, list, list, list] | None:
    """The (steps, loops, names, imports) a payload carries, or None when it carries none this
    interpreter can load."""
    if not isinstance(value, Packed) or value.tag != TAG:
        return None
    try:
        steps, loops, used, imports = marshal.loads(base64.b64decode(value.blob))
    except (ValueError, TypeError, EOFError):
        return None
    return steps, loops, used, imports


def pack_program(program: str) -> Packed | None:
    """The candidate compiled in the grader exactly as its check's child would compile it
    (runner._compile: file name solution.py, no inherited flags, the workers' optimization
    level 0), for a payload's `program_code`: the grader parses it anyway for the flags scan,
    and compiling in a fresh child costs ~0.7 ms against ~0.2 ms here (the child's compiler
    writes to pages it must first copy). None when it does not compile (the child then compiles
    and reports the error) or is bigger than MAX_PROGRAM (it compiles in its child, under the
    check's limits, not on the grader's one interpreter)."""
    if len(program) > MAX_PROGRAM:
        return None
    try:
        code = compile(program, WORKDIR_SOLUTION, "exec", dont_inherit=True, optimize=0)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    return Packed(TAG, base64.b64encode(marshal.dumps(code)).decode())


def program_code(payload: CheckPayload) -> CodeType | None:
    """The candidate's code object the payload carries, or None (the child compiles it)."""
    value = payload.program_code
    if not isinstance(value, Packed) or value.tag != TAG:
        return None
    try:
        code = marshal.loads(base64.b64decode(value.blob))
    except (ValueError, TypeError, EOFError):
        return None
    return code if isinstance(code, CodeType) else None


def clear() -> None:
    _cache.clear()
