"""Keep the rows (or whole groups) of a scored file that a rule selects: by reward, status,
flags, and per-group pass rate — e.g. the problems a model sometimes solves (0 < rate < 1,
the only ones that carry signal for GRPO).

Row rules stream. A group rule needs every row of a group before the first can be written,
so it reads the input twice: pass one counts passes per group (memory grows with the number
of groups, never the number of rows), pass two writes the rows of the groups that qualify.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rlvr_grade.io import open_output, open_rollouts
from rlvr_grade.io.readers import RowSource, first_row
from rlvr_grade.reports import group_key, outcome_from_row
from rlvr_grade.types import STATUSES, InputError, Outcome

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_TWO_SIDED = re.compile(rf"^(?:({_NUM})(<=?))?x(?:(<=?)({_NUM}))?$")
_GREATER = re.compile(rf"^x(>=?)({_NUM})$")
_EQUAL = re.compile(rf"^x==?({_NUM})$")


@dataclass(frozen=True)
class Range:
    """An interval of pass rates; None for an open end."""

    lo: float | None
    lo_inclusive: bool
    hi: float | None
    hi_inclusive: bool
    text: str = ""

    def __contains__(self, x: float) -> bool:
        if self.lo is not None and (x < self.lo or (x == self.lo and not self.lo_inclusive)):
            return False
        if self.hi is not None and (x > self.hi or (x == self.hi and not self.hi_inclusive)):
            return False
        return True

    def __str__(self) -> str:
        return self.text


def parse_range(text: str, what: str = "--group-pass-rate") -> Range:
    """Parse `0<x<1`, `0<=x<=0.5`, `x>0`, `x>=0.5`, `x<1`, `0.2<=x`, `x==0`. Strict: anything
    else, bounds outside [0, 1] or an empty range raise ValueError with the accepted forms."""
    compact = re.sub(r"\s+", "", text or "")
    forms = "expected a range like 0<x<1, 0<=x<=0.5, x>0, x>=0.5, x<1 or x==0"
    lo = hi = None
    lo_inc = hi_inc = False
    m = _TWO_SIDED.match(compact)
    if m and (m.group(1) or m.group(4)):
        if m.group(1):
            lo, lo_inc = float(m.group(1)), m.group(2) == "<="
        if m.group(4):
            hi, hi_inc = float(m.group(4)), m.group(3) == "<="
    elif (m := _GREATER.match(compact)):
        lo, lo_inc = float(m.group(2)), m.group(1) == ">="
    elif (m := _EQUAL.match(compact)):
        lo = hi = float(m.group(1))
        lo_inc = hi_inc = True
    else:
        raise ValueError(f"{what} {text!r}: {forms}")
    for bound in (lo, hi):
        if bound is not None and not 0.0 <= bound <= 1.0:
            raise ValueError(f"{what} {text!r}: a pass rate bound must be between 0 and 1, got {bound:g}")
    if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_inc and hi_inc))):
        raise ValueError(f"{what} {text!r}: no pass rate satisfies this range")
    return Range(lo, lo_inc, hi, hi_inc, compact)


@dataclass(frozen=True)
class FilterSpec:
    """Which rows to keep. Group rules are decided over *all* of a group's rows first; then
    the row rules pick rows within the groups kept."""

    min_reward: float | None = None
    max_reward: float | None = None
    statuses: frozenset[str] | None = None
    no_flags: bool = False  # drop rows with any flag
    with_flags: frozenset[str] = frozenset()  # keep only rows carrying one of these
    drop_flags: frozenset[str] = frozenset()  # drop rows carrying one of these
    group_col: str | None = None
    group_pass_rate: Range | None = None

    def __post_init__(self) -> None:
        if self.statuses is not None:
            unknown = sorted(set(self.statuses) - set(STATUSES))
            if unknown:
                raise ValueError(f"--status: unknown status {', '.join(unknown)} (known: {', '.join(STATUSES)})")
        if self.group_pass_rate is not None and not self.group_col:
            raise ValueError("--group-pass-rate needs --group-col (the column naming each row's problem)")

    def row_reason(self, outcome: Outcome) -> str | None:
        """Why a row is dropped by the row rules (None: kept)."""
        if self.min_reward is not None or self.max_reward is not None:
            if outcome.reward is None:
                return "reward is null (sandbox_error)"
            if self.min_reward is not None and outcome.reward < self.min_reward:
                return f"reward < {self.min_reward:g}"
            if self.max_reward is not None and outcome.reward > self.max_reward:
                return f"reward > {self.max_reward:g}"
        if self.statuses is not None and outcome.status not in self.statuses:
            return f"status not in {{{', '.join(sorted(self.statuses))}}}"
        flags = set(outcome.flags)
        if self.no_flags and flags:
            return "flagged"
        if self.drop_flags & flags:
            return f"flagged {', '.join(sorted(self.drop_flags & flags))}"
        if self.with_flags and not (self.with_flags & flags):
            return f"not flagged {', '.join(sorted(self.with_flags))}"
        return None


@dataclass
class FilterReport:
    """What was kept and why the rest was dropped."""

    rows_in: int = 0
    rows_kept: int = 0
    groups_in: int | None = None
    groups_kept: int | None = None
    dropped_rows: Counter = field(default_factory=Counter)  # reason -> rows
    dropped_groups: Counter = field(default_factory=Counter)  # reason -> groups
    graded: bool = False

    def lines(self) -> list[str]:
        out = [f"kept {self.rows_kept} of {self.rows_in} rows"
               + (f" ({self.groups_kept} of {self.groups_in} groups)" if self.groups_in is not None else "")]
        for reason, n in self.dropped_groups.most_common():
            out.append(f"  dropped {n} group(s): {reason}")
        for reason, n in self.dropped_rows.most_common():
            out.append(f"  dropped {n} row(s): {reason}")
        return out


def _is_scored(source: RowSource, first: Any) -> bool:
    if source.columns is not None:
        return "status" in source.columns
    return first is not None and "status" in first.row


def _group_rate_reason(n: int, passes: int, rng: Range) -> str | None:
    if n == 0:
        return "no graded rows in the group (all sandbox_error)"
    rate = passes / n
    if rate in rng:
        return None
    if passes == 0:
        return f"pass rate 0, not in {rng}"
    if passes == n:
        return f"pass rate 1, not in {rng}"
    return f"pass rate {rate:.2f}, not in {rng}"


def filter_file(
    input_path: str,
    output_path: str,
    spec: FilterSpec,
    grade: bool | None = None,
    grade_options: Any = None,
    save_scored: str | None = None,
    on_note: Callable[[str], None] = lambda _m: None,
) -> FilterReport:
    """Write the rows of `input_path` that `spec` keeps to `output_path` (format from its
    extension; written to a temp file and moved into place). `grade`: None grades on the fly
    only when the input has no reward columns, True always, False never (an unscored input is
    then an error). `grade_options`: the api.ScoreOptions for that grading."""
    report = FilterReport()
    where = _dir_of(output_path)
    sweep_workdirs(where)
    # Named after this process and locked while it runs: a later run removes it only once this
    # process is gone and nobody holds it (a SIGKILLed run leaves its scored copy here).
    workdir = tempfile.mkdtemp(prefix=f".rlvr-filter.{os.getpid()}.", dir=where)
    lock = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        path = input_path
        if path == "-":  # stdin cannot be read twice (group rules) or peeked and replayed
            path = os.path.join(workdir, "stdin.jsonl")
            with open(path, "wb") as fh:
                shutil.copyfileobj(sys.stdin.buffer, fh)
        source = open_rollouts(path)
        first, _rows = first_row(iter(source))
        scored = _is_scored(source, first)
        if grade or (grade is None and not scored):
            from rlvr_grade.api import ScoreOptions, score_file

            ext = ".parquet" if source.format == "parquet" else ".jsonl"
            target = save_scored or os.path.join(workdir, "scored" + ext)
            on_note("grading the input first (it has no reward columns)" if not scored else "grading the input first (--grade)")
            score_file(path, target, grade_options or ScoreOptions())
            report.graded = True
            path = target
        elif grade is False and not scored:
            raise InputError(f"{input_path} has no reward columns ('status')", tip="grade it first, or drop --no-grade")
        source = open_rollouts(path)
        head, _ = first_row(iter(source))  # a RowSource reads its file afresh on each iteration
        cols = source.columns if source.columns is not None else (list(head.row) if head else None)
        if spec.group_col and cols is not None and spec.group_col not in cols:
            raise InputError(f"input has no column {spec.group_col!r} (--group-col)", tip=f"the input has: {', '.join(sorted(cols)[:12])}")

        groups: dict[Any, list[int]] | None = None
        if spec.group_pass_rate is not None:
            groups = {}
            for r in open_rollouts(path):
                value = r.row.get(spec.group_col) if r.error is None else None
                if value is None:
                    continue
                outcome = outcome_from_row(r)
                g = groups.setdefault(group_key(value), [0, 0])
                if outcome.status != "sandbox_error":  # as summary.Summary counts groups
                    g[0] += 1
                    g[1] += outcome.status == "pass"
            verdicts = {k: _group_rate_reason(n, c, spec.group_pass_rate) for k, (n, c) in groups.items()}
            report.groups_in = len(groups)
            report.groups_kept = sum(v is None for v in verdicts.values())
            for reason in verdicts.values():
                if reason is not None:
                    report.dropped_groups[_coarse(reason)] += 1

        sink = open_output(output_path, source.schema)
        try:
            for r in source:
                report.rows_in += 1
                outcome = outcome_from_row(r)
                reason = None
                if groups is not None:
                    value = r.row.get(spec.group_col)
                    if value is None:
                        reason = f"no {spec.group_col!r} value"
                    else:
                        why = verdicts[group_key(value)]
                        reason = f"in a dropped group ({_coarse(why)})" if why else None
                if reason is None:
                    reason = spec.row_reason(outcome)
                if reason is not None:
                    report.dropped_rows[reason] += 1
                    continue
                sink.write(r.row)
                report.rows_kept += 1
        except BaseException:
            sink.abort()
            raise
        sink.close()
        return report
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        os.close(lock)


_WORKDIR = re.compile(r"\.rlvr-filter\.(\d+)\.[^/]+")


def sweep_workdirs(directory: str) -> list[str]:
    """Remove the work folders (`.rlvr-filter.<pid>.*`) that SIGKILLed filter runs left in
    `directory`: those whose pid no longer runs and that nobody holds a lock on, and never
    through a symlink. Returns their paths."""
    from rlvr_grade.leftovers import remove_abandoned

    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for name in names:
        m = _WORKDIR.fullmatch(name)
        path = os.path.join(directory, name)
        if m is not None and remove_abandoned(path, int(m.group(1)), folder=True):
            removed.append(path)
    return removed


def _coarse(reason: str) -> str:
    """Group reasons with a specific rate ("pass rate 0.30, ...") counted under one line."""
    return re.sub(r"pass rate 0\.\d\d", "pass rate in between", reason)


def _dir_of(path: str) -> str:
    if path == "-":
        return tempfile.gettempdir()
    return os.path.dirname(os.path.abspath(path)) or "."
