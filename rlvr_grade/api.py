"""The library entry points: `score_file` (what the CLI runs) and `Grader`/`grade` (what a
trainer calls with rows in memory). The CLI is a thin layer over these."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from rlvr_grade import scoring
from rlvr_grade.checks import CheckOptions, InvalidRow, build_check
from rlvr_grade.checks.flags import scan as scan_flags
from rlvr_grade.io import open_output, open_rollouts
from rlvr_grade.io.readers import first_row
from rlvr_grade.pool import done_future, ordered_map, with_retries
from rlvr_grade.sandbox import make_backend
from rlvr_grade.sandbox.base import Backend
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.summary import Summary
from rlvr_grade.types import InputError, Outcome, Rollout, SandboxError


@dataclass(frozen=True)
class ScoreOptions:
    """Every knob of a grading run; the CLI flags map one to one onto these."""

    checks: CheckOptions = field(default_factory=CheckOptions)
    reward: RewardConfig = field(default_factory=RewardConfig)
    backend: str = "local"
    concurrency: int = 0  # 0: one per CPU
    strict: bool = False
    retries: int = 3
    retry_delay: float = 0.5
    backend_options: tuple[tuple[str, Any], ...] = ()

    @property
    def workers(self) -> int:
        return self.concurrency or os.cpu_count() or 1


class StrictError(Exception):
    """--strict and a malformed row: stop the run (nothing is written)."""


def outcome_columns(outcome: Outcome) -> dict[str, Any]:
    return {
        "reward": outcome.reward,
        "status": outcome.status,
        "tests_passed": outcome.tests_passed,
        "tests_total": outcome.tests_total,
        "duration_ms": outcome.duration_ms,
        "error": outcome.error,
        "flags": list(outcome.flags),
        "cached": outcome.cached,
    }


class Grader:
    """A warm sandbox pool plus the grading rules. Reuse one across calls (a trainer's steps):
    starting the pool is the expensive part. Thread-safe; use as a context manager."""

    def __init__(self, options: ScoreOptions | None = None, backend: Backend | None = None, hide: Iterable[str] = ()):
        self.options = options or ScoreOptions()
        self.checks = self.options.checks.resolved()
        self._backend = backend
        self._hide = list(hide)
        self._started = False

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            opts = dict(self.options.backend_options)
            if self.options.backend == "local" and self._hide:
                opts.setdefault("hide", self._hide)
            self._backend = make_backend(self.options.backend, self.options.workers, **opts)
        return self._backend

    def start(self) -> "Grader":
        if not self._started:
            try:
                self.backend.start()
            except OSError as exc:  # e.g. the worker's interpreter cannot be executed
                raise SandboxError(f"the {self.options.backend} backend could not start: {exc}") from exc
            self._started = True
        return self

    def close(self) -> None:
        if self._backend is not None and self._started:
            self._backend.close()
        self._started = False

    def __enter__(self) -> "Grader":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one row ---------------------------------------------------------------------------
    def grade_rollout(self, rollout: Rollout) -> Outcome:
        """Grade one row; never raises for a bad row or a failed sandbox."""
        if rollout.error is not None:
            return self._invalid(rollout, rollout.error)
        try:
            check = build_check(rollout, self.checks)
        except InvalidRow as exc:
            return self._invalid(rollout, str(exc))
        flags = scan_flags(check.program)
        t0 = time.perf_counter()
        try:
            ex = with_retries(lambda: self.backend.run(check), self.options.retries, self.options.retry_delay)
        except SandboxError as exc:
            return scoring.apply_flags(scoring.infrastructure_failure(str(exc)), flags, self.options.reward)
        duration_ms = (time.perf_counter() - t0) * 1000
        return scoring.score(check, ex, self.options.reward, duration_ms, flags)

    def _invalid(self, rollout: Rollout, message: str) -> Outcome:
        if self.options.strict:
            raise StrictError(f"{rollout.where}: {message}")
        return scoring.invalid(f"{rollout.where}: {message}")

    # -- many rows -------------------------------------------------------------------------
    def iter_grade(self, rollouts: Iterable[Rollout]) -> Iterator[tuple[Rollout, Outcome]]:
        """Grade a stream of rollouts concurrently; yields (rollout, outcome) in input order."""
        self.start()

        def submit(pool: ThreadPoolExecutor, r: Rollout) -> Future:
            if r.error is not None:
                return done_future((r, self.grade_rollout(r)))
            return pool.submit(lambda: (r, self.grade_rollout(r)))

        yield from ordered_map(rollouts, submit, self.options.workers)

    def grade(self, rows: Iterable[dict[str, Any]] | Any) -> list[Outcome]:
        """Grade rows held in memory (dicts, or a pyarrow Table); results in input order."""
        if hasattr(rows, "to_pylist"):
            rows = rows.to_pylist()
        rollouts = (Rollout(index=i, row=row) for i, row in enumerate(rows))
        return [outcome for _, outcome in self.iter_grade(rollouts)]


def grade(rows: Iterable[dict[str, Any]] | Any, options: ScoreOptions | None = None) -> list[Outcome]:
    """One-shot convenience: start a pool, grade `rows`, stop the pool."""
    with Grader(options) as grader:
        return grader.grade(rows)


def check_columns(first: Rollout | None, source_columns: list[str] | None, opts: CheckOptions) -> None:
    """A column missing from the input as a whole is an input error (exit 2), not N bad rows."""
    cols = source_columns if source_columns is not None else (list(first.row) if first else None)
    if cols is None:
        return
    for col in opts.required_columns():
        if col not in cols:
            near = ", ".join(sorted(cols)[:12])
            flag = "--completion-col" if col == opts.completion_col else "--tests-col"
            tip = f"the input has: {near}. Map yours with {flag} NAME" + (
                "" if opts.preset != "none" else ", or try --preset humaneval / --preset mbpp"
            )
            raise InputError(f"input has no column {col!r}", tip=tip)


def score_file(
    input_path: str,
    output_path: str | None,
    options: ScoreOptions | None = None,
    on_row: Callable[[Rollout, Outcome, int | None, int | None], None] | None = None,
    grader: Grader | None = None,
) -> Summary:
    """Grade every row of `input_path` and write it, with the reward columns, to `output_path`
    (format from its extension; None writes nothing). Returns the run's Summary."""
    options = options or ScoreOptions()
    source = open_rollouts(input_path)
    checks = options.checks.resolved()
    hide = [os.path.abspath(p) for p in (input_path, output_path) if p and p != "-"]
    hide = [os.path.dirname(p) for p in hide]
    own = grader is None
    grader = grader or Grader(options, hide=hide)
    first, rows = first_row(iter(source))
    check_columns(first, source.columns, checks)
    summary = Summary(backend=options.backend)
    sink = open_output(output_path, source.schema) if output_path else None
    t0 = time.perf_counter()
    try:
        grader.start()
        summary.isolation = grader.backend.isolation()
        for rollout, outcome in grader.iter_grade(rows):
            if sink is not None:
                sink.write({**rollout.row, **outcome_columns(outcome)} if rollout.error is None
                           else {"_line": rollout.line, **outcome_columns(outcome)})
            group = rollout.row.get(checks.group_col) if checks.group_col else None
            summary.add(outcome, group)
            if on_row is not None:
                on_row(rollout, outcome, source.bytes_read, source.total_bytes)
    except BaseException:
        if sink is not None:
            sink.abort()
        raise
    finally:
        if own:
            grader.close()
    if sink is not None:
        sink.close()
    summary.wall_s = time.perf_counter() - t0
    return summary


def with_limits(options: ScoreOptions, **limits: Any) -> ScoreOptions:
    return replace(options, checks=replace(options.checks, limits=replace(options.checks.limits, **limits)))
