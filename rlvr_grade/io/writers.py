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


# What `-o` can name: the suffix decides the format, and any other suffix is refused rather
# than silently written as JSONL.
OUTPUT_SUFFIXES = {".jsonl": "jsonl", ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl",
                   ".parquet": "parquet", ".pq": "parquet"}


def output_format(path: str) -> str:
    """"jsonl" or "parquet" from the suffix (`-` is JSONL on stdout); raises OutputError for
    any other suffix."""
    if path == "-":
        return "jsonl"
    name = path.lower()
    for suffix, fmt in OUTPUT_SUFFIXES.items():
        if name.endswith(suffix):
            return fmt
    from rlvr_grade.types import OutputError

    tail = os.path.basename(path).lstrip(".")
    why = f"{tail[tail.index('.'):]!r} is not an output format" if "." in tail else "a name without a suffix does not say the format"
    raise OutputError(f"cannot write {path}: {why}", tip="name it .jsonl, .jsonl.gz or .parquet (or - for stdout)")


def check_writable(path: str, what: str = "output") -> None:
    """Raise OutputError naming `path` when a file cannot be created there: it is a directory,
    its folder is missing or is not one, or the folder refuses a new file (tried for real:
    permissions, a read-only filesystem)."""
    from rlvr_grade.types import OutputError

    if path == "-":
        return
    if os.path.isdir(path):
        raise OutputError(f"cannot write the {what} {path}: it is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        raise OutputError(f"cannot write the {what} {path}: the folder {folder} does not exist",
                          tip=f"create it first: mkdir -p {folder}")
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write the {what} {path}: {folder} is not a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.check.", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write the {what} {path}: {exc.strerror or exc} in {folder}") from None
    os.close(fd)
    os.unlink(tmp)


class RowSink:
    """Base class: `write(row)` in input order, `close()` commits, `abort()` leaves no file.

    A row is always written: a value the format cannot hold as it is (a lone surrogate, an int
    beyond 64 bits, nesting deeper than the encoder goes; in Parquet, a type other than its
    column's) is written as text, or null where the column cannot hold text, and counted in
    `misfits` so the caller can say so."""

    misfits = 0

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
        try:
            data = orjson.dumps(row, option=_ORJSON, default=_default)
        except (orjson.JSONEncodeError, TypeError, ValueError):
            self.misfits += 1
            data = orjson.dumps(storable(row), option=_ORJSON, default=_default)
        self._fh.write(data)
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


_ORJSON = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS
# orjson refuses to nest deeper than 254: deeper parts of a value are written as their JSON text.
_MAX_NESTING = 200


def storable(value: Any, depth: int = 0) -> Any:
    """`value` with what orjson (and Arrow) cannot encode replaced: text made safe (see
    boundary.safe_text), ints beyond 64 bits as their decimal text, keys as text, and any part
    nested deeper than _MAX_NESTING as its JSON text (stdlib json: no depth limit of its own
    beyond the interpreter's recursion; past that, its repr-like text)."""
    from rlvr_grade.text import safe_text

    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**64 else str(value)
    if isinstance(value, (list, tuple, dict)) and depth >= _MAX_NESTING:
        import json

        try:
            return safe_text(json.dumps(value, ensure_ascii=False, default=str))
        except (ValueError, TypeError, RecursionError):
            return f"<a {type(value).__name__} nested too deeply to write>"
    if isinstance(value, dict):
        return {safe_text(k): storable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v, depth + 1) for v in value]
    try:
        return safe_text(_default(value))
    except Exception:  # noqa: BLE001 - a value whose own conversion fails
        return f"<{type(value).__name__}>"


def as_json_text(value: Any) -> str:
    """A value as JSON text (for a Parquet string column holding a value of another type)."""
    if isinstance(value, str):
        from rlvr_grade.text import safe_text

        return safe_text(value)
    if type(value) is int:
        return str(value)  # JSON's own text for any int, 64-bit or not
    return orjson.dumps(storable(value), option=_ORJSON, default=_default).decode()


def _default(obj: Any) -> Any:
    if isinstance(obj, (bytes, bytearray)):
        return obj.decode("utf-8", "replace")
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    if hasattr(obj, "as_py"):
        return obj.as_py()
    return str(obj)


class ParquetSink(RowSink):
    """Rows buffered into row groups; the schema is the input's plus the outcome columns.

    From JSONL input the schema is inferred from the first row group (every column any of its
    rows has, in order of appearance). A column Arrow cannot type (mixed types) or Parquet
    cannot store (all null, an empty object) becomes text holding each value's JSON. A later
    value that does not fit its column is written as JSON text in a text column, else as null;
    a column that first appears after the first row group cannot be added. Both are counted in
    `misfits`: JSONL output keeps every value as it is."""

    def __init__(self, path: str, input_schema: Any = None, row_group_size: int = 4096):
        import pyarrow as pa

        self._pa = pa
        self.path = path
        self.row_group_size = row_group_size
        self._rows: list[dict[str, Any]] = []
        self._writer = None
        self._schema = None
        self.misfits = 0
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

    def _infer(self, rows: list[dict[str, Any]]) -> Any:
        """The schema of the first row group (see the class docstring)."""
        pa = self._pa
        names: dict[str, None] = {}
        for row in rows:
            names.update(dict.fromkeys(k for k in row if k not in OUTCOME_COLUMNS))
        fields = []
        for name in names:
            values = [row.get(name) for row in rows]
            try:
                kind = pa.array(values).type
            except (pa.ArrowException, OverflowError, TypeError, ValueError, RecursionError):
                kind = None
            if kind is None or not _storable_type(pa, kind):
                kind = pa.string()
            fields.append(pa.field(safe_key(name), kind))
        return pa.schema(fields)

    def _table(self, rows: list[dict[str, Any]]) -> Any:
        pa = self._pa
        schema = self._schema
        names = set(schema.names)
        try:
            if all(names.issuperset(row) for row in rows):
                return pa.Table.from_pylist(rows, schema=schema)
        except (pa.ArrowException, OverflowError, TypeError, ValueError, RecursionError):
            pass
        return pa.Table.from_pylist([self._fitted(row) for row in rows], schema=schema)

    def _fitted(self, row: dict[str, Any]) -> dict[str, Any]:
        """One row made to fit the schema, value by value (the slow path, for rows that do not)."""
        pa = self._pa
        keys = {safe_key(k): v for k, v in row.items()}
        self.misfits += sum(1 for k in keys if self._schema.get_field_index(k) < 0)
        out = {}
        for f in self._schema:
            value = keys.get(f.name)
            if value is not None:
                try:
                    pa.array([value], type=f.type)
                except (pa.ArrowException, OverflowError, TypeError, ValueError, RecursionError):
                    self.misfits += 1
                    value = as_json_text(value) if pa.types.is_string(f.type) else None
            out[f.name] = value
        return out

    def _flush(self) -> None:
        import pyarrow.parquet as pq

        if not self._rows:
            return
        if self._schema is None:
            self._schema = self._with_outcomes(self._infer(self._rows))
        table = self._table(self._rows)
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


def safe_key(name: Any) -> str:
    from rlvr_grade.text import safe_text

    return safe_text(name)


# pyarrow reads back at most 100 levels of schema nesting (and each list level counts twice).
_MAX_PARQUET_NESTING = 40


def _storable_type(pa: Any, kind: Any, depth: int = 0) -> bool:
    """Whether Parquet can store `kind` (and read it back), and later rows can add values to
    it: not null (all values None so far), no struct without fields ({} everywhere), nesting
    within what pyarrow reads back."""
    if depth > _MAX_PARQUET_NESTING or pa.types.is_null(kind):
        return False
    if pa.types.is_struct(kind):
        return kind.num_fields > 0 and all(_storable_type(pa, kind.field(i).type, depth + 1) for i in range(kind.num_fields))
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return _storable_type(pa, kind.value_type, depth + 1)
    if pa.types.is_map(kind):
        return _storable_type(pa, kind.key_type, depth + 1) and _storable_type(pa, kind.item_type, depth + 1)
    return True


def open_output(path: str, input_schema: Any = None) -> RowSink:
    """Open the output named by `-o`: its extension picks the format; `-` is JSONL on stdout.
    Raises OutputError (naming the path) when it cannot be written."""
    check_writable(path)
    fmt = output_format(path)
    try:
        return ParquetSink(path, input_schema) if fmt == "parquet" else JsonlSink(path)
    except OSError as exc:
        from rlvr_grade.types import OutputError

        raise OutputError(f"cannot write the output {path}: {exc.strerror or exc}") from None
