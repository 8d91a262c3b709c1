"""A check's random numbers: a pure function of (completion, tests), the same on any machine.

CPython reseeds `random` from os.urandom in every fork, and numpy's legacy global generator is
the worker's: each process running a check's code is seeded here at its start, from sha256
digests of the tests and the program (docs/fidelity.md "Determinism" has the whole argument and
what stays random: SystemRandom, os.urandom, unseeded Random() and default_rng(), native code)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass

from rlvr_harness.wire import CaseOptions, CheckPayload

# Changing it changes every seed (and with it rewards that depend on random draws).
VERSION = b"rlvr-grade seed 1\0"
_NUMPY_SEEDS = 1 << 32  # numpy's legacy seed() takes 0 .. 2**32 - 1


try:  # CPython's own: OpenSSL's (hashlib's) first digest in a check's child cost ~0.15 ms
    from _sha256 import sha256 as _sha256  # 3.11; the same digests
except ImportError:  # pragma: no cover - 3.12+ (_sha2), or not built
    _sha256 = hashlib.sha256


@dataclass(frozen=True)
class Seeds:
    """The two seeds of one check: `tests` for the check's own process, `program` for a
    process running only the candidate's code."""

    tests: int
    program: int


def _text(h: object, text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    h.update(len(data).to_bytes(8, "big"))  # type: ignore[attr-defined]
    h.update(data)  # type: ignore[attr-defined]


def tests_digest(payload: CheckPayload) -> bytes:
    """The digest of what the check runs the program against: style, language, set-up code,
    tests text and, for stdio/call checks, the cases' inputs (never the run limits)."""
    h = _sha256(VERSION)
    for part in (payload.style, payload.language, payload.setup, payload.tests):
        _text(h, part)
    opts = payload.options
    if isinstance(opts, CaseOptions):
        _text(h, json.dumps([list(opts.inputs), [c.to_wire() for c in opts.calls], opts.fn_name],
                            sort_keys=True, separators=(",", ":")))
    return h.digest()


def seeds(payload: CheckPayload) -> Seeds:
    """The check's seeds, each a one-way hash of both digests under its stream's name: a
    program cannot compute either from its own text, nor the tests' from its own seed."""
    tests = tests_digest(payload)
    h = _sha256(VERSION)
    _text(h, payload.program)
    program = h.digest()
    return Seeds(_derive(b"tests", tests, program), _derive(b"program", tests, program))


def _derive(stream: bytes, *parts: bytes) -> int:
    h = _sha256(VERSION + stream)
    for p in parts:
        h.update(p)
    return int.from_bytes(h.digest()[:8], "big")


def case_seed(program_seed: int, index: int) -> int:
    """The seed of a stdio or call case's process: the program's stream, mixed with the case's
    index (each case draws its own numbers, the same on every run)."""
    return _derive(b"case", program_seed.to_bytes(8, "big"), index.to_bytes(8, "big"))


def seed_here(seed: int) -> None:
    """Seed this process's `random` and, where numpy is loaded, numpy's legacy global
    generator. Call it at the start of a process, before any candidate code runs in it."""
    random.seed(seed)
    np_random = sys.modules.get("numpy.random")
    if np_random is not None:
        np_random.seed(seed % _NUMPY_SEEDS)


def start_check(payload: CheckPayload) -> None:
    """Seed the check's own process from the tests' stream (runner.run, every style)."""
    seed_here(seeds(payload).tests)


def start_program(payload: CheckPayload) -> None:
    """Seed a process that runs only the candidate's program (not its cases) from the
    program's stream: call it right after that process's fork, before the program runs."""
    seed_here(seeds(payload).program)
