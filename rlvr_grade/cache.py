"""Content-hash cache: resume after an interruption and grade identical rollouts once.

A reward is a pure function of (the check, the reward rules, the runtime). `cache_key` hashes
exactly that — canonical JSON (sorted keys, no whitespace) through sha256 — and `Cache` maps
the key to the outcome columns in SQLite. Nothing else enters the key: not the row's position,
its other columns, nor the file it came from.

Crash safety: each result is one INSERT in its own transaction, in WAL mode, so after a
SIGKILL at any instant a result is either fully recorded or absent. We use
`synchronous=NORMAL`, not FULL: in WAL mode NORMAL loses nothing when the *process* dies (the
committed WAL frames are already in the OS page cache, which survives the process); only a
power cut or kernel crash can drop the last few commits, and even then the database stays
consistent — the lost rows are simply graded again. FULL would add an fsync per result, which
on a slow disk caps the grader at a few hundred checks per second for no gain in correctness.

Versioning: the table names carry SCHEMA_VERSION (a file can hold several schemas side by
side, e.g. two grader versions sharing ~/.cache), and every key includes the grader version
and a hash of the grader's own source, so a result is only ever served to the code that
computed it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import math
import os
import platform
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from rlvr_grade.types import Check, Outcome
from rlvr_grade.version import __version__
from rlvr_harness.values import BIG_BITS

SCHEMA_VERSION = 1
OUTCOMES = f"outcomes_v{SCHEMA_VERSION}"
RUNTIMES = f"runtimes_v{SCHEMA_VERSION}"

# Statuses that are not a verdict on the candidate: never stored. sandbox_error must be
# retried next run; invalid_input costs nothing to recompute and its message names a row.
NOT_CACHED = frozenset({"sandbox_error", "invalid_input"})

# Outcome fields with a column of their own; any other field (added to Outcome later) is kept
# in the `extra` JSON column so it round-trips too.
_COLUMNS = ("status", "reward", "tests_passed", "tests_total", "duration_ms", "error", "flags")
# How this run obtained the row, and a flag only sandbox_error rows (never stored) carry.
_NOT_STORED = ("cached", "grader_error")
_LAYOUT = ("key", *_COLUMNS, "extra", "grader", "runtime", "created")


class CacheError(Exception):
    """The cache file cannot be used (not a SQLite file, unwritable, a newer layout)."""


def default_cache_path() -> str:
    """`$RLVR_GRADE_CACHE`, else `$XDG_CACHE_HOME/rlvr-grade/cache.sqlite` (XDG_CACHE_HOME
    defaults to ~/.cache)."""
    env = os.environ.get("RLVR_GRADE_CACHE")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(os.path.abspath(base), "rlvr-grade", "cache.sqlite")


# -- key derivation -------------------------------------------------------------------------


_PLAIN = (str, int, bool, type(None))


def _canon(obj: Any) -> Any:
    """Map a value onto plain JSON types, keeping distinct values distinct (1 vs 1.0 vs True,
    a tuple of bytes vs a string...)."""
    if isinstance(obj, _PLAIN):
        if type(obj) is int and not -(2**63) <= obj < 2**63:
            # beyond what orjson encodes; past int->str's digit limit, as hex (values.BIG_BITS)
            return {"__int__": str(obj) if obj.bit_length() <= BIG_BITS else format(obj, "#x")}
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else {"__float__": repr(obj)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"__dc__": type(obj).__name__, **{f.name: _canon(getattr(obj, f.name)) for f in dataclasses.fields(obj)}}
    if isinstance(obj, (list, tuple)):
        return [_canon(x) for x in obj]
    if isinstance(obj, dict):
        if all(isinstance(k, str) for k in obj):
            return {"__map__": {k: _canon(v) for k, v in obj.items()}}
        return {"__pairs__": sorted(([_canon(k), _canon(v)] for k, v in obj.items()), key=_dump)}
    if isinstance(obj, (set, frozenset)):
        return {"__set__": sorted((_canon(x) for x in obj), key=_dump)}
    if isinstance(obj, (bytes, bytearray)):
        return {"__bytes__": bytes(obj).hex()}
    # Anything else (numpy scalars, Decimals...) by type and repr: stable for value types.
    return {"__repr__": f"{type(obj).__module__}.{type(obj).__qualname__}", "v": repr(obj)}


def _dump(obj: Any) -> bytes:
    """Canonical JSON: sorted keys, no whitespace, UTF-8 (orjson: ~20x the stdlib's speed,
    which matters because every row is hashed on the reading thread)."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # lone surrogates and the like: still a stable encoding
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


@functools.lru_cache(maxsize=1)
def code_hash() -> str:
    """sha256 over the grader's own source: this package and the harness that runs inside the
    sandbox (rlvr_harness, beside it), Python and C. A development checkout (or a patched
    install) that changes the rules without bumping __version__ must not reuse old results;
    the harness holds most of them (the strict comparisons, the guard, the array interface's
    check), and was left out after it moved out of this package."""
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for root in (here, os.path.join(os.path.dirname(here), "rlvr_harness")):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".py", ".c")):
                    path = os.path.join(dirpath, name)
                    h.update(os.path.relpath(path, os.path.dirname(here)).encode() + b"\0")
                    with open(path, "rb") as fh:
                        h.update(fh.read() + b"\0")
    return h.hexdigest()[:16]


def runtime_fingerprint(backend_fingerprint: dict[str, Any]) -> dict[str, Any]:
    """Everything outside the row that can change a reward: grader version and source, cache
    schema, the host Python (it parses the tests to decide which must pass), the default
    environment's lock hash (the grader's pytest and its dependencies; a row's own
    environment is in its Check) and the backend's own fingerprint taken whole (python/pytest
    inside the sandbox, isolation, image...)."""
    from rlvr_grade.envs import default_env_id

    return {
        "grader": __version__,
        "code": code_hash(),
        "schema": SCHEMA_VERSION,
        "host_python": platform.python_version(),
        "default_env": default_env_id(),
        "backend": backend_fingerprint,
    }


def key_context(reward: Any, runtime: dict[str, Any]) -> bytes:
    """The part of every key that is the same for a whole run (reward rules + runtime);
    computed once per Grader, not once per row."""
    return _dump({"reward": _canon(reward), "runtime": _canon(runtime)})


def check_key(check: Check, context: bytes) -> str:
    """cache_key with the run's `key_context` precomputed."""
    h = hashlib.sha256(context)
    h.update(b"\0")
    h.update(_dump(_canon(check)))
    return h.hexdigest()


def cache_key(check: Check, reward: Any, runtime: dict[str, Any]) -> str:
    """The content hash of one check. `check` is hashed field by field (program after
    extraction, tests, style, options, setup, language, limits, expected outputs, network...),
    not only its sandbox payload: expected outputs never enter the sandbox but decide the
    verdict. `reward` is the RewardConfig (shape and bonus); `runtime` a runtime_fingerprint."""
    return check_key(check, key_context(reward, runtime))


# -- the store ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CacheStats:
    """What `rlvr-grade cache stats` shows."""

    path: str
    exists: bool
    entries: int
    bytes: int
    schemas: dict[int, int]  # schema version -> entries
    graders: dict[str, int]  # grader version -> entries (current schema)
    statuses: dict[str, int]
    runtimes: list[dict[str, Any]]  # fingerprint + entries, current schema
    oldest: float | None
    newest: float | None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_TABLE_RE = re.compile(r"^outcomes_v(\d+)$")


class Cache:
    """A SQLite store of outcomes by content hash. Thread-safe: one connection, one lock —
    a primary-key lookup or a one-row commit takes tens of microseconds, far below a check's
    cost, so a single serialized connection is not the bottleneck (see bench/cache.py).

    `Cache(None)` is a private temporary database (SQLite deletes it on close, and unlinks it
    at once, so a SIGKILL leaves nothing): in-run dedupe with no persistent store."""

    def __init__(self, path: str | None, runtime: dict[str, Any] | None = None):
        self.path = os.path.abspath(path) if path else None
        self._lock = threading.Lock()
        self._runtime_id: str | None = None
        self._closed = False
        if self.path:
            directory = os.path.dirname(self.path)
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError as exc:
                raise CacheError(f"cannot create the cache directory {directory}: {exc.strerror}") from exc
        try:
            self._db = sqlite3.connect(self.path or "", timeout=30.0, isolation_level=None, check_same_thread=False)
            if self.path:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(
                f"""
                CREATE TABLE IF NOT EXISTS {OUTCOMES} (
                    key TEXT PRIMARY KEY,
                    status TEXT NOT NULL,
                    reward REAL,
                    tests_passed INTEGER NOT NULL,
                    tests_total INTEGER NOT NULL,
                    duration_ms REAL NOT NULL,
                    error TEXT NOT NULL,
                    flags TEXT NOT NULL,
                    extra TEXT,
                    grader TEXT NOT NULL,
                    runtime TEXT NOT NULL,
                    created REAL NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS {RUNTIMES} (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL);
                """
            )
            layout = [r[1] for r in self._db.execute(f"PRAGMA table_info({OUTCOMES})")]
        except sqlite3.DatabaseError as exc:
            raise CacheError(f"{self.path} is not a usable cache: {exc}") from exc
        if layout != list(_LAYOUT):
            # Same schema number, different columns: someone changed the layout without bumping
            # SCHEMA_VERSION. Refuse rather than guess what the stored values mean.
            self._db.close()
            raise CacheError(f"{self.path} has an unknown layout for schema v{SCHEMA_VERSION}: {', '.join(layout)}")
        if self.path:
            try:
                os.chmod(self.path, 0o600)  # results are the grader's business, not other users'
            except OSError:
                pass
        if runtime is not None:
            self.set_runtime(runtime)

    def set_runtime(self, runtime: dict[str, Any]) -> None:
        """Record the runtime fingerprint new entries are computed under (for `stats`)."""
        rid = hashlib.sha256(_dump(_canon(runtime))).hexdigest()[:16]
        text = json.dumps(runtime, sort_keys=True, default=repr)  # readable, for `stats`
        with self._lock:
            self._db.execute(f"INSERT OR IGNORE INTO {RUNTIMES} (id, fingerprint) VALUES (?, ?)", (rid, text))
        self._runtime_id = rid

    def get(self, key: str) -> Outcome | None:
        """The stored outcome for `key`, marked cached=True, or None."""
        with self._lock, self._errors("read"):
            if self._closed:
                return None
            row = self._db.execute(
                f"SELECT status, reward, tests_passed, tests_total, duration_ms, error, flags, extra FROM {OUTCOMES} WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        status, reward, passed, total, duration, error, flags, extra = row
        fields = {
            "status": status,
            "reward": reward,
            "tests_passed": passed,
            "tests_total": total,
            "duration_ms": duration,
            "error": error,
            "flags": tuple(json.loads(flags)),
        }
        if extra:
            known = {f.name for f in dataclasses.fields(Outcome)}
            # JSON has no tuples; Outcome's sequence fields are tuples (frozen, hashable).
            fields.update({k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(extra).items() if k in known})
        return Outcome(**fields, cached=True)

    def put(self, key: str, outcome: Outcome) -> bool:
        """Record a final outcome; returns False (and stores nothing) for statuses that are not
        a verdict (sandbox_error, invalid_input) or once the cache is closed."""
        if outcome.status in NOT_CACHED:
            return False
        extra = {
            f.name: getattr(outcome, f.name)
            for f in dataclasses.fields(outcome)
            if f.name not in _COLUMNS and f.name not in _NOT_STORED
        }
        row = (
            key,
            outcome.status,
            outcome.reward,
            outcome.tests_passed,
            outcome.tests_total,
            outcome.duration_ms,
            outcome.error,
            json.dumps(list(outcome.flags)),
            json.dumps(extra, default=list) if extra else None,
            __version__,
            self._runtime_id or "",
            time.time(),
        )
        with self._lock, self._errors("write"):
            if self._closed:
                return False
            # One statement in autocommit mode = one transaction: all of the row or none.
            self._db.execute(f"INSERT OR REPLACE INTO {OUTCOMES} VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", row)
        return True

    @contextlib.contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        # Disk full, a read-only file, a lock held past the timeout: one clear error that names
        # the file. Results committed so far stay; the run can resume once it is fixed.
        try:
            yield
        except sqlite3.Error as exc:
            raise CacheError(f"cannot {what} the cache {self.path or '(temporary)'}: {exc}") from exc

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute(f"SELECT count(*) FROM {OUTCOMES}").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def __enter__(self) -> "Cache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- management (`rlvr-grade cache stats|clear`) ---------------------------------------------


def _file_bytes(path: str) -> int:
    return sum(os.path.getsize(p) for p in (path, path + "-wal", path + "-shm") if os.path.exists(p))


def _tables(db: sqlite3.Connection) -> dict[int, str]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {int(m.group(1)): n for n in names if (m := _TABLE_RE.match(n))}


def _open_existing(path: str) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30.0, isolation_level=None)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise CacheError(f"{path} is not a usable cache: {exc}") from exc
    return db


def stats(path: str) -> CacheStats:
    """Entries, size on disk, and which schema/grader versions and runtimes are present."""
    path = os.path.abspath(path)
    if not os.path.exists(path):
        return CacheStats(path, False, 0, 0, {}, {}, {}, [], None, None)
    db = _open_existing(path)
    try:
        tables = _tables(db)
        schemas = {v: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for v, t in sorted(tables.items())}
        graders: dict[str, int] = {}
        statuses: dict[str, int] = {}
        runtimes: list[dict[str, Any]] = []
        oldest = newest = None
        if SCHEMA_VERSION in tables:
            graders = dict(db.execute(f"SELECT grader, count(*) FROM {OUTCOMES} GROUP BY grader ORDER BY grader"))
            statuses = dict(db.execute(f"SELECT status, count(*) FROM {OUTCOMES} GROUP BY status ORDER BY 2 DESC"))
            oldest, newest = db.execute(f"SELECT min(created), max(created) FROM {OUTCOMES}").fetchone()
            for rid, fp, n in db.execute(
                f"SELECT r.id, r.fingerprint, count(o.key) FROM {RUNTIMES} r LEFT JOIN {OUTCOMES} o ON o.runtime = r.id GROUP BY r.id"
            ):
                if n:
                    runtimes.append({"id": rid, "entries": n, "fingerprint": json.loads(fp)})
    finally:
        db.close()
    return CacheStats(
        path=path,
        exists=True,
        entries=sum(schemas.values()),
        bytes=_file_bytes(path),
        schemas=schemas,
        graders=graders,
        statuses=statuses,
        runtimes=runtimes,
        oldest=oldest,
        newest=newest,
    )


_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$")
_UNITS = {"": 86400.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}


def parse_age(text: str) -> float:
    """'30d', '12h', '90m', '45s', '2w' (a bare number is days) -> seconds."""
    m = _DURATION_RE.match(text)
    if not m:
        raise ValueError(f"cannot read {text!r} as an age: use e.g. 30d, 12h, 90m")
    return float(m.group(1)) * _UNITS[m.group(2)]


def clear(path: str, older_than_s: float | None = None, grader_version: str | None = None) -> int:
    """Delete entries: all of them (every schema) with no filter; else those older than
    `older_than_s` and/or computed by `grader_version`. Returns how many were deleted. Safe while
    a run uses the cache: deletions are transactions like any other write."""
    path = os.path.abspath(path)
    if not os.path.exists(path):
        return 0
    db = _open_existing(path)
    try:
        tables = _tables(db)
        deleted = 0
        if older_than_s is None and grader_version is None:
            for version, table in tables.items():
                deleted += db.execute(f"DELETE FROM {table}").rowcount
                if version != SCHEMA_VERSION:  # an older layout nobody here can read: drop it
                    db.execute(f"DROP TABLE {table}")
        elif SCHEMA_VERSION in tables:
            where, args = [], []
            if older_than_s is not None:
                where.append("created < ?")
                args.append(time.time() - older_than_s)
            if grader_version is not None:
                where.append("grader = ?")
                args.append(grader_version)
            deleted = db.execute(f"DELETE FROM {OUTCOMES} WHERE {' AND '.join(where)}", args).rowcount
        if deleted:
            if SCHEMA_VERSION in tables:
                db.execute(f"DELETE FROM {RUNTIMES} WHERE id NOT IN (SELECT DISTINCT runtime FROM {OUTCOMES})")
            db.execute("VACUUM")  # give the space back to the filesystem
            try:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError:
                pass
    finally:
        db.close()
    return deleted
