"""Readers: JSONL (plain, .gz, stdin) and Parquet (record batches), yielding Rollouts."""

from __future__ import annotations

import gzip
import io
import os
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

import orjson

from rlvr_grade.types import InputError, Rollout


def input_format(path: str) -> str:
    name = path.lower()
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    return "jsonl"


class RowSource:
    """An input file as a stream of Rollouts. `schema` is the Arrow schema for Parquet input."""

    def __init__(self, path: str):
        self.path = path
        self.format = input_format(path)
        self.schema = None
        self.total_bytes: int | None = None
        self.bytes_read = 0
        self._pf = None
        if path == "-":
            return
        if not os.path.exists(path):
            raise InputError(f"cannot read {path}: no such file", tip="check the path")
        if os.path.isdir(path):
            raise InputError(f"cannot read {path}: it is a directory")
        self.total_bytes = os.path.getsize(path)
        if self.format == "parquet":
            import pyarrow.parquet as pq

            try:
                self._pf = pq.ParquetFile(path)
            except Exception as exc:  # pyarrow raises several types for a bad file
                raise InputError(
                    f"cannot read {path} as Parquet: {exc}",
                    tip="is it really Parquet? JSONL files should end in .jsonl",
                ) from exc
            self.schema = self._pf.schema_arrow

    @property
    def columns(self) -> list[str] | None:
        return list(self.schema.names) if self.schema is not None else None

    def __iter__(self) -> Iterator[Rollout]:
        if self.format == "parquet":
            yield from self._iter_parquet()
        else:
            yield from self._iter_jsonl()

    def _iter_parquet(self) -> Iterator[Rollout]:
        index = 0
        assert self._pf is not None
        total_rows = max(self._pf.metadata.num_rows, 1)
        for batch in self._pf.iter_batches(batch_size=512):
            for row in batch.to_pylist():
                yield Rollout(index=index, row=row)
                index += 1
            if self.total_bytes:
                self.bytes_read = int(self.total_bytes * index / total_rows)

    def _open_binary(self) -> BinaryIO:
        if self.path == "-":
            raw: BinaryIO = sys.stdin.buffer
        else:
            raw = open(self.path, "rb")
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
        if head == b"\x1f\x8b" or self.path.endswith(".gz"):
            return gzip.open(raw)  # type: ignore[return-value]
        return raw

    def _iter_jsonl(self) -> Iterator[Rollout]:
        try:
            fh = self._open_binary()
        except OSError as exc:
            raise InputError(f"cannot read {self.path}: {exc.strerror or exc}") from exc
        index = 0
        raw = fh.fileobj if isinstance(fh, gzip.GzipFile) else fh  # type: ignore[attr-defined]
        try:
            for line_no, line in enumerate(_lines(fh), start=1):
                if self.total_bytes and hasattr(raw, "tell"):
                    try:
                        self.bytes_read = raw.tell()
                    except (OSError, ValueError):
                        pass
                if not line.strip():
                    continue
                try:
                    row = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    yield Rollout(index, {}, line=line_no, error=f"broken JSON: {exc}")
                else:
                    if isinstance(row, dict):
                        yield Rollout(index, row, line=line_no)
                    else:
                        kind = type(row).__name__
                        yield Rollout(index, {}, line=line_no, error=f"expected a JSON object, got {kind}")
                index += 1
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise InputError(f"cannot read {self.path}: {exc}") from exc
        finally:
            if self.path != "-":
                fh.close()


def _lines(fh: BinaryIO) -> Iterator[bytes]:
    if isinstance(fh, io.BufferedReader) or isinstance(fh, gzip.GzipFile):
        yield from fh
    else:
        yield from io.BufferedReader(fh)  # type: ignore[arg-type]


def open_rollouts(path: str) -> RowSource:
    """Open an input file (`.jsonl`, `.jsonl.gz`, `.parquet`, or `-` for stdin)."""
    return RowSource(path)


def first_row(rows: Iterator[Rollout]) -> tuple[Rollout | None, Iterator[Rollout]]:
    """Peek the first readable row (for column checks) without losing it."""
    buffered: list[Rollout] = []
    found = None
    for r in rows:
        buffered.append(r)
        if r.error is None:
            found = r
            break

    def chain() -> Iterator[Rollout]:
        yield from buffered
        yield from rows

    return found, chain()


def row_value(row: dict[str, Any], column: str) -> Any:
    return row.get(column)
