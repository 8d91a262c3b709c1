"""CI reports: a per-problem pass map for the summary JSON, the diff against a baseline
summary, JUnit XML, and GitHub Actions annotations / step summary. Pure bookkeeping on
Outcomes; the CLI decides what to print and which exit code follows."""

from __future__ import annotations

import functools
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from rlvr_grade.types import GRADER_ERROR_PREFIX, InputError, Outcome, Rollout

# The per-problem map is bounded: a CI suite has hundreds or thousands of problems; a
# million-row training file keyed by row would make the summary JSON as big as the data.
PROBLEMS_CAP = 10_000


def group_key(value: Any) -> Any:
    """The key summary.Summary files a group under, so both agree on what a group is."""
    return value if isinstance(value, (str, int, float, bool)) else repr(value)


def problem_key(rollout: Rollout, group_col: str | None, id_col: str | None) -> str:
    """A row's problem: its group (samples of one problem), else its id, else its position."""
    for col in (group_col, id_col):
        if col:
            value = rollout.row.get(col)
            if value is not None:
                return str(group_key(value))
    return f"#{rollout.index}"


class ProblemTracker:
    """Per-problem passed/total counts (sandbox errors excluded, as in Summary's groups),
    capped at `cap` problems: rows of problems beyond the cap are not tracked and the map
    says so (`problems_truncated`)."""

    def __init__(self, group_col: str | None, id_col: str | None, cap: int = PROBLEMS_CAP):
        self.group_col, self.id_col, self.cap = group_col, id_col, cap
        self.counts: dict[str, list[int]] = {}
        self.truncated = False

    @property
    def key_column(self) -> str:
        return self.group_col or self.id_col or "#row"

    def add(self, rollout: Rollout, outcome: Outcome) -> None:
        if self.cap <= 0:
            return
        key = problem_key(rollout, self.group_col, self.id_col)
        entry = self.counts.get(key)
        if entry is None:
            if len(self.counts) >= self.cap:
                self.truncated = True
                return
            entry = self.counts[key] = [0, 0]
        if outcome.status != "sandbox_error":
            entry[1] += 1
            entry[0] += outcome.status == "pass"

    def to_dict(self) -> dict[str, Any]:
        """What goes into the summary JSON: {"problems": {id: "passed/total"}, ...}."""
        if self.cap <= 0:
            return {}
        return {
            "problems_key": self.key_column,
            "problems_truncated": self.truncated,
            "problems": {k: f"{p}/{t}" for k, (p, t) in self.counts.items()},
        }


# -- baseline ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ProblemChange:
    problem: str
    before: str  # "passed/total"
    now: str


@dataclass(frozen=True)
class BaselineDiff:
    """How this run's problems compare with a previous summary's."""

    regressed: tuple[ProblemChange, ...]
    improved: tuple[ProblemChange, ...]
    unchanged: int
    missing: tuple[str, ...]  # in the baseline, not in this run
    new: tuple[str, ...]  # in this run, not in the baseline
    truncated: bool  # either map was capped: the comparison covers only what both hold

    def to_dict(self, limit: int = 1000) -> dict[str, Any]:
        return {
            "regressed": [c.__dict__ for c in self.regressed[:limit]],
            "improved": [c.__dict__ for c in self.improved[:limit]],
            "regressed_count": len(self.regressed),
            "improved_count": len(self.improved),
            "unchanged": self.unchanged,
            "missing": len(self.missing),
            "new": len(self.new),
        }


def _fraction(value: Any, where: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(value))
    if not m:
        raise InputError(f"baseline problem {where!r}: expected \"passed/total\", got {value!r}")
    return int(m.group(1)), int(m.group(2))


def load_baseline(path: str) -> dict[str, Any]:
    """A previous run's summary JSON (from --summary-json), checked to have a problem map."""
    try:
        with open(path) as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise InputError(f"cannot read baseline {path}: no such file")
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read baseline {path}: {exc}")
    if not isinstance(data, dict) or not isinstance(data.get("problems"), dict):
        raise InputError(
            f"baseline {path} has no per-problem results (\"problems\")",
            tip="write the baseline with a version of rlvr-grade that records them: score ... --summary-json PATH",
        )
    for key, value in data["problems"].items():
        _fraction(value, key)
    return data


def diff_problems(before: dict[str, Any], now: dict[str, Any], truncated: bool = False) -> BaselineDiff:
    """A problem regressed when its pass fraction went down (for one row per problem: it
    passed before and fails now), improved when it went up. Problems with no graded rows on
    either side (all sandbox errors) are left out of both."""
    regressed, improved, unchanged = [], [], 0
    for key, now_value in now.items():
        if key not in before:
            continue
        bp, bt = _fraction(before[key], key)
        np_, nt = _fraction(now_value, key)
        if bt == 0 or nt == 0:
            continue
        change = ProblemChange(key, f"{bp}/{bt}", f"{np_}/{nt}")
        # Cross-multiplied so 1/3 vs 2/6 is "unchanged" with no float rounding.
        if np_ * bt < bp * nt:
            regressed.append(change)
        elif np_ * bt > bp * nt:
            improved.append(change)
        else:
            unchanged += 1
    return BaselineDiff(
        regressed=tuple(regressed),
        improved=tuple(improved),
        unchanged=unchanged,
        missing=tuple(k for k in before if k not in now),
        new=tuple(k for k in now if k not in before),
        truncated=truncated,
    )


def compare_with_baseline(baseline: dict[str, Any], data: dict[str, Any]) -> BaselineDiff:
    """Diff a finished run's summary dict against a loaded baseline."""
    truncated = bool(baseline.get("problems_truncated")) or bool(data.get("problems_truncated"))
    return diff_problems(baseline["problems"], data.get("problems") or {}, truncated)


# -- JUnit XML --------------------------------------------------------------------------------
FAILURE_STATUSES = ("fail", "timeout", "memory_limit", "runtime_error", "compile_error")
ERROR_STATUSES = ("invalid_input", "sandbox_error")


@functools.lru_cache(maxsize=1)
def _xml_bad() -> re.Pattern:
    """Characters XML 1.0 cannot carry at all (a model's output can contain any of them).
    Compiled on first use: the class spans all of Unicode and takes ~12 ms to compile, on the
    start-up path of every CLI run otherwise."""
    return re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(s: str) -> str:
    s = _xml_bad().sub("\ufffd", s)
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attr(s: str) -> str:
    return _xml_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")


class JUnitWriter:
    """One <testcase> per row, streamed to a temporary file (memory stays flat), wrapped in
    a <testsuite> whose counts are known only at the end, then moved into place atomically.
    The candidate failing its tests is a <failure>; a row that could not be judged
    (invalid_input, sandbox_error) is an <error>."""

    def __init__(self, path: str, suite: str = "rlvr-grade"):
        self.path, self.suite = path, suite
        self.tests = self.failures = self.errors = 0
        self.time_s = 0.0
        self._body: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")

    def add(self, name: str, classname: str, outcome: Outcome) -> None:
        self.tests += 1
        secs = (outcome.duration_ms or 0.0) / 1000
        self.time_s += secs
        head = f'  <testcase classname="{_xml_attr(classname)}" name="{_xml_attr(name)}" time="{secs:.3f}"'
        if outcome.status == "pass":
            self._body.write(head + "/>\n")
            return
        tag = "error" if outcome.status in ERROR_STATUSES else "failure"
        if tag == "error":
            self.errors += 1
        else:
            self.failures += 1
        detail = f"{outcome.status}: tests passed {outcome.tests_passed}/{outcome.tests_total}"
        message = f"{outcome.status}: {outcome.error}" if outcome.error else outcome.status
        self._body.write(
            f'{head}>\n    <{tag} type="{outcome.status}" message="{_xml_attr(message[:300])}">'
            f"{_xml_text(detail)}\n{_xml_text(outcome.error)}</{tag}>\n  </testcase>\n"
        )

    def close(self) -> None:
        from rlvr_grade.io.writers import temp_beside

        fd, tmp = temp_beside(self.path)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
                attrs = (
                    f'name="{_xml_attr(self.suite)}" tests="{self.tests}" failures="{self.failures}" '
                    f'errors="{self.errors}" skipped="0" time="{self.time_s:.3f}"'
                )
                out.write(f"<testsuites {attrs}>\n<testsuite {attrs}>\n")
                self._body.seek(0)
                for chunk in iter(lambda: self._body.read(1 << 16), ""):
                    out.write(chunk)
                out.write("</testsuite>\n</testsuites>\n")
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        finally:
            self._body.close()

    def abort(self) -> None:
        self._body.close()


# -- one collector for score and summary ------------------------------------------------------
class RunReport:
    """What `score` and `summary` both collect row by row beyond summary.Summary: the problem
    map and, if asked, the JUnit XML."""

    def __init__(self, group_col: str | None, id_col: str | None, problems_cap: int = PROBLEMS_CAP, junit_path: str | None = None):
        self.problems = ProblemTracker(group_col, id_col, problems_cap)
        self.junit = JUnitWriter(junit_path) if junit_path else None
        self.group_col, self.id_col = group_col, id_col

    def add(self, rollout: Rollout, outcome: Outcome) -> None:
        self.problems.add(rollout, outcome)
        if self.junit is not None:
            name = None
            if self.id_col and rollout.row.get(self.id_col) is not None:
                name = str(rollout.row[self.id_col])
            group = rollout.row.get(self.group_col) if self.group_col else None
            classname = str(group_key(group)) if group is not None else "rlvr-grade"
            self.junit.add(name or rollout.where, classname, outcome)

    def finish(self, data: dict[str, Any]) -> dict[str, Any]:
        """Add the problem map to a summary dict and write the JUnit file."""
        data.update(self.problems.to_dict())
        if self.junit is not None:
            self.junit.close()
        return data

    def abort(self) -> None:
        if self.junit is not None:
            self.junit.abort()


# -- GitHub Actions ---------------------------------------------------------------------------
def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def one_line(data: dict[str, Any]) -> str:
    """The run in one line: pass rate, counts, pass@1 if known, non-pass statuses."""
    parts = [f"pass rate {data['pass_rate']:.2%} ({data['passed']}/{data['graded']})"]
    if data.get("pass_at_k", {}).get("pass@1") is not None:
        parts.append(f"pass@1 {data['pass_at_k']['pass@1']:.4f}")
    others = [f"{k} {v}" for k, v in data.get("statuses", {}).items() if v and k != "pass"]
    if others:
        parts.append(", ".join(others))
    return "rlvr-grade: " + "; ".join(parts)


def github_commands(data: dict[str, Any], diff: BaselineDiff | None, problems: list[str]) -> list[str]:
    """Workflow-command lines: a ::notice:: with the one-line summary (::error:: when a gate
    failed — `problems` says which), and one ::error:: naming the regressed problems."""
    level = "error" if problems else "notice"
    line = one_line(data) + (" — " + "; ".join(problems) if problems else "")
    out = [f"::{level} title={_gh_prop('rlvr-grade')}::{_gh_data(line)}"]
    if diff is not None and diff.regressed:
        names = ", ".join(c.problem for c in diff.regressed[:50])
        more = f" (+{len(diff.regressed) - 50} more)" if len(diff.regressed) > 50 else ""
        out.append(f"::error title={_gh_prop('rlvr-grade regressions')}::{_gh_data(f'{len(diff.regressed)} regressed: {names}{more}')}")
    return out


def step_summary_markdown(data: dict[str, Any], diff: BaselineDiff | None) -> str:
    """A markdown table for $GITHUB_STEP_SUMMARY."""
    lines = ["### rlvr-grade", "", "| metric | value |", "|---|---|"]
    lines.append(f"| rows | {data['rows']} |")
    lines.append(f"| pass rate | {data['pass_rate']:.2%} ({data['passed']}/{data['graded']}) |")
    for k, v in (data.get("pass_at_k") or {}).items():
        lines.append(f"| {k} | {v:.4f} |")
    statuses = ", ".join(f"{k} {v}" for k, v in data.get("statuses", {}).items() if v)
    lines.append(f"| statuses | {statuses or '-'} |")
    if diff is not None:
        lines.append(f"| vs baseline | {len(diff.regressed)} regressed, {len(diff.improved)} improved, {diff.unchanged} unchanged |")
    if diff is not None and diff.regressed:
        lines += ["", "| regressed problem | before | now |", "|---|---|---|"]
        lines += [f"| {c.problem.replace('|', '/')} | {c.before} | {c.now} |" for c in diff.regressed[:100]]
    return "\n".join(lines) + "\n"


def emit_github(data: dict[str, Any], diff: BaselineDiff | None, problems: list[str], echo: Callable[[str], None], env: dict[str, str] | None = None) -> None:
    """When running under GitHub Actions: annotations through `echo`, and the markdown table
    appended to $GITHUB_STEP_SUMMARY if that is set."""
    env = os.environ if env is None else env
    if env.get("GITHUB_ACTIONS") != "true":
        return
    for line in github_commands(data, diff, problems):
        echo(line)
    path = env.get("GITHUB_STEP_SUMMARY")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(step_summary_markdown(data, diff))


def rows_with_outcomes(rows: Iterator[Rollout]) -> Iterator[tuple[Rollout, Outcome]]:
    """Read back a scored file: each row with the Outcome its reward columns describe."""
    for r in rows:
        yield r, outcome_from_row(r)


def outcome_from_row(r: Rollout) -> Outcome:
    """The Outcome a scored row's columns record; a row without them is an input error."""
    row = r.row
    if r.error is not None:
        raise InputError(f"{r.where}: {r.error}")
    status = row.get("status")
    if status is None:
        raise InputError(
            f"{r.where}: no 'status' column — is this a scored file?",
            tip="grade it first: rlvr-grade score IN -o SCORED (or `rlvr-grade filter --grade`)",
        )
    from rlvr_grade.types import STATUSES

    if status not in STATUSES:
        raise InputError(f"{r.where}: unknown status {status!r} (expected one of {', '.join(STATUSES)})")
    reward = row.get("reward")
    flags = row.get("flags") or ()
    return Outcome(
        status=status,
        reward=float(reward) if reward is not None else None,
        tests_passed=int(row.get("tests_passed") or 0),
        tests_total=int(row.get("tests_total") or 0),
        duration_ms=float(row.get("duration_ms") or 0.0),
        error=str(row.get("error") or ""),
        flags=tuple(flags),
        cached=bool(row.get("cached")),
        grader_error=status == "sandbox_error" and str(row.get("error") or "").startswith(GRADER_ERROR_PREFIX),
    )


def gate_failures(data: dict[str, Any], diff: BaselineDiff | None, fail_under: float | None, fail_on_regression: bool) -> list[str]:
    """The CI gates this run fails, as one message each (empty: the run passes)."""
    out = []
    if fail_under is not None and data["pass_rate"] < fail_under:
        out.append(f"pass rate {data['pass_rate']:.4f} is below --fail-under {fail_under}")
    if fail_on_regression and diff is not None and diff.regressed:
        names = ", ".join(c.problem for c in diff.regressed[:20])
        more = f" and {len(diff.regressed) - 20} more" if len(diff.regressed) > 20 else ""
        out.append(f"{len(diff.regressed)} problem(s) regressed since the baseline: {names}{more}")
    return out


def summarize_scored(
    path: str,
    group_col: str | None = None,
    id_col: str | None = None,
    problems_cap: int = PROBLEMS_CAP,
    junit_path: str | None = None,
) -> dict[str, Any]:
    """The summary of an already-scored file (JSONL or Parquet), computed by summary.Summary
    from the reward columns — the same numbers `score` reported for it (timings are the
    recorded per-check durations; there is no wall time or throughput)."""
    from rlvr_grade.io import open_rollouts
    from rlvr_grade.summary import Summary

    source = open_rollouts(path)
    if source.columns is not None and "status" not in source.columns:
        raise InputError(
            f"{path} has no 'status' column — is it a scored file?",
            tip="grade it first: rlvr-grade score IN -o SCORED",
        )
    for col, flag in ((group_col, "--group-col"), (id_col, "--id-col")):
        if col and source.columns is not None and col not in source.columns:
            raise InputError(f"{path} has no column {col!r} ({flag})", tip=f"the file has: {', '.join(source.columns[:12])}")
    summary = Summary(backend="")
    report = RunReport(group_col, id_col, problems_cap, junit_path)
    try:
        for rollout, outcome in rows_with_outcomes(iter(source)):
            group = rollout.row.get(group_col) if group_col else None
            summary.add(outcome, group)
            report.add(rollout, outcome)
    except BaseException:
        report.abort()
        raise
    data = summary.to_dict()
    # Not known from a file: how long the run took and where it ran.
    for key in ("wall_s", "throughput_rows_per_s", "backend", "isolation"):
        data.pop(key, None)
    return report.finish(data)
