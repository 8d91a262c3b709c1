"""Writers: JSONL (plain or .gz, or stdout) and Parquet. Written to a temp file, then os.replace."""

from __future__ import annotations

import fcntl
import gzip
import os
import re
import sys
import tempfile
from typing import Any

import orjson

# The columns rlvr-grade adds to every row, with their Arrow types.
OUTCOME_COLUMNS: dict[str, str] = {
    "reward": "float64",
    "status": "string",
    "tests_passed": "int64",
    "tests_total": "int64",
    "duration_ms": "float64",
    "error": "string",
    "flags": "list<string>",
    "cached": "bool",
    "case_verdicts": "list<string>",  # empty except for stdio/call rows; always present (stable schema)
}


def output_format(path: str) -> str:
    return "parquet" if path.lower().endswith((".parquet", ".pq")) else "jsonl"


class RowSink:
    """Base class: `write(row)` in input order, `close()` commits, `abort()` leaves no file."""

    def write(self, row: dict[str, Any]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> "RowSink":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


# What temp_beside names its files after the output's own name: ".<pid>.<mkstemp's 8 random
# characters>.part". Only this exact shape is ever swept, so no other file is touched.
_PART_TAIL = re.compile(r"\.([0-9]+)\.[a-z0-9_]{8}\.part")


def temp_beside(path: str) -> tuple[int, str]:
    """A temp file beside `path`, to be os.replace'd onto it: `.<name>.<pid>.<random>.part`,
    flock'ed for as long as its descriptor is open. The ones a killed run left for the same
    name are removed first (see sweep_parts)."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    name = os.path.basename(path)
    sweep_parts(directory, name)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}.", suffix=".part", dir=directory)
    try:
        # The lock, not only the pid, says the file is in use: a writer in another pid
        # namespace (a container sharing the directory) has a pid that means nothing here.
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass  # a filesystem without locks: the pid check alone protects it
    return fd, tmp


def sweep_parts(directory: str, name: str) -> list[str]:
    """Remove the `.part` files a SIGKILLed run left beside output `name` (os.replace never
    ran): those whose pid no longer runs and that nobody holds a lock on. Returns their paths."""
    from rlvr_grade.leftovers import remove_abandoned

    prefix = f".{name}"
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for entry in names:
        m = _PART_TAIL.fullmatch(entry, len(prefix)) if entry.startswith(prefix) else None
        path = os.path.join(directory, entry)
        if m is not None and remove_abandoned(path, int(m.group(1))):
            removed.append(path)
    return removed


class JsonlSink(RowSink):
    def __init__(self, path: str):
        self.path = path
        self._tmp: str | None = None
        if path == "-":
            self._fh = sys.stdout.buffer
            return
        fd, self._tmp = temp_beside(path)
        raw = os.fdopen(fd, "wb")
        self._fh = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if path.endswith(".gz") else raw
        self._raw = raw

    def write(self, row: dict[str, Any]) -> None:
        self._fh.write(orjson.dumps(row, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS, default=_default))
        self._fh.write(b"\n")

    def close(self) -> None:
        if self._tmp is None:
            self._fh.flush()
            return
        self._fh.close()
        if self._raw is not self._fh:
            self._raw.close()
        os.replace(self._tmp, self.path)
        self._tmp = None

    def abort(self) -> None:
        if self._tmp is not None:
            try:
                self._fh.close()
            finally:
                os.unlink(self._tmp)
                self._tmp = None


def _default(obj: Any) -> Any:
    if isinstance(obj, (bytes, bytearray)):
        return obj.decode("utf-8", "replace")
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    if hasattr(obj, "as_py"):
        return obj.as_py()
    return str(obj)


class ParquetSink(RowSink):
    """Rows buffered into row groups; the schema is the input's plus the outcome columns."""

    def __init__(self, path: str, input_schema: Any = None, row_group_size: int = 4096):
        import pyarrow as pa

        self._pa = pa
        self.path = path
        self.row_group_size = row_group_size
        self._rows: list[dict[str, Any]] = []
        self._writer = None
        self._schema = None
        if input_schema is not None:
            self._schema = self._with_outcomes(input_schema)
        # pyarrow opens the path itself; this descriptor stays open only to hold the lock.
        self._lock_fd, self._tmp = temp_beside(path)

    def _with_outcomes(self, schema: Any) -> Any:
        pa = self._pa
        types = {
            "float64": pa.float64(),
            "string": pa.string(),
            "int64": pa.int64(),
            "list<string>": pa.list_(pa.string()),
            "bool": pa.bool_(),
        }
        for name in OUTCOME_COLUMNS:
            idx = schema.get_field_index(name)
            if idx >= 0:
                schema = schema.remove(idx)
        for name, kind in OUTCOME_COLUMNS.items():
            schema = schema.append(pa.field(name, types[kind]))
        return schema

    def write(self, row: dict[str, Any]) -> None:
        self._rows.append(row)
        if len(self._rows) >= self.row_group_size:
            self._flush()

    def _flush(self) -> None:
        import pyarrow.parquet as pq

        if not self._rows:
            return
        pa = self._pa
        if self._schema is None:
            inferred = pa.Table.from_pylist(self._rows).schema
            self._schema = self._with_outcomes(inferred)
        table = pa.Table.from_pylist(self._rows, schema=self._schema)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._tmp, self._schema)
        self._writer.write_table(table)
        self._rows.clear()

    def close(self) -> None:
        import pyarrow.parquet as pq

        self._flush()
        if self._writer is None:
            schema = self._schema or self._with_outcomes(self._pa.schema([]))
            self._writer = pq.ParquetWriter(self._tmp, schema)
        self._writer.close()
        os.replace(self._tmp, self.path)
        self._unlock()

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def abort(self) -> None:
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:
                pass
        if os.path.exists(self._tmp):
            os.unlink(self._tmp)
        self._unlock()


def open_output(path: str, input_schema: Any = None) -> RowSink:
    """Open the output named by `-o`: its extension picks the format; `-` is JSONL on stdout."""
    if output_format(path) == "parquet":
        return ParquetSink(path, input_schema)
    return JsonlSink(path)
