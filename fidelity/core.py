"""The comparison itself: two verdicts per row, how a disagreement is classed, the table and the
report. Pure (no subprocesses, no data files): tests/project/test_fidelity_tool.py drives it on
synthetic rows."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
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
    ref: Verdict
    program: str = ""
    # A module the program imports that rlvr-grade's checks cannot import (see
    # grader.missing_modules): the reason when a failure's own text does not name it.
    grader_missing: str | None = None


_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def missing_module(v: Verdict) -> str | None:
    """The module a failed verdict's error says is not installed, if that is why it failed."""
    if v.passed:
        return None
    m = _MISSING_MODULE.search(v.error or "")
    return m.group(1).split(".")[0] if m else None


def classify(row: Row, ref_name: str = "reference") -> str | None:
    """None when both graders agree; otherwise the disagreement's class, named by both
    verdicts. A disagreement whose failing side only lacked a package is an environment class
    (`env: ...`): it says nothing about the grader's verdicts and is counted apart."""
    if row.ours.passed == row.ref.passed:
        return None
    failing, side = (row.ref, ref_name) if row.ours.passed else (row.ours, "rlvr-grade")
    mod = missing_module(failing) or (None if row.ours.passed else row.grader_missing)
    if mod:
        return f"env: no module {mod!r} for {side}"
    return f"rlvr {row.ours.status} / {ref_name} {row.ref.status}"


def is_env(cls: str | None) -> bool:
    return bool(cls) and cls.startswith("env:")


@dataclass
class GroupSummary:
    group: str
    reference: str
    rows: int = 0
    ours_pass: int = 0
    ref_pass: int = 0
    agree: int = 0
    env: int = 0  # disagreements that are a missing package on one side only
    classes: Counter = field(default_factory=Counter)
    confusion: Counter = field(default_factory=Counter)

    @property
    def disagree(self) -> int:
        return self.rows - self.agree - self.env

    @property
    def agreement(self) -> float | None:
        """Agreement over the rows whose verdicts mean something (environment rows left out)."""
        n = self.rows - self.env
        return self.agree / n if n else None

    def to_dict(self) -> dict:
        return {
            "reference": self.reference, "rows": self.rows, "rlvr_pass": self.ours_pass,
            "reference_pass": self.ref_pass, "agree": self.agree, "disagree": self.disagree,
            "env_only": self.env, "agreement": None if self.agreement is None else round(self.agreement, 6),
            "classes": dict(sorted(self.classes.items(), key=lambda kv: (-kv[1], kv[0]))),
            "confusion": {f"{a}/{b}": n for (a, b), n in sorted(self.confusion.items())},
        }


def summarize(rows: Iterable[Row], references: dict[str, str]) -> tuple[dict[str, GroupSummary], list[dict]]:
    """Per-group counts and the list of every disagreement (environment ones included, marked
    by their class). `references` names the reference grader of each group."""
    groups: dict[str, GroupSummary] = {}
    disagreements: list[dict] = []
    for row in rows:
        ref_name = references.get(row.group, "reference")
        g = groups.setdefault(row.group, GroupSummary(row.group, ref_name))
        g.rows += 1
        g.ours_pass += row.ours.passed
        g.ref_pass += row.ref.passed
        g.confusion[("ref_pass" if row.ref.passed else "ref_fail", row.ours.status)] += 1
        cls = classify(row, ref_name)
        if cls is None:
            g.agree += 1
            continue
        g.classes[cls] += 1
        if is_env(cls):
            g.env += 1
        disagreements.append({
            "group": row.group, "key": row.key, "class": cls,
            "rlvr": asdict(row.ours), "reference": asdict(row.ref), "program": row.program,
        })
    return groups, disagreements


def _pct(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if x < 1 else "100%"


def render_table(groups: dict[str, GroupSummary]) -> str:
    """The compact table: one line per group, then a total over the verdict-bearing rows."""
    head = ("group", "reference", "rows", "rlvr pass", "ref pass", "agree", "disagree", "env-only", "agreement")
    lines = [head]
    tot = GroupSummary("total", "")
    for g in groups.values():
        lines.append((g.group, g.reference, str(g.rows), str(g.ours_pass), str(g.ref_pass), str(g.agree),
                      str(g.disagree), str(g.env), _pct(g.agreement)))
        tot.rows += g.rows
        tot.ours_pass += g.ours_pass
        tot.ref_pass += g.ref_pass
        tot.agree += g.agree
        tot.env += g.env
    lines.append(("total", "", str(tot.rows), str(tot.ours_pass), str(tot.ref_pass), str(tot.agree),
                  str(tot.disagree), str(tot.env), _pct(tot.agreement)))
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


def render_disagreements(disagreements: list[dict], per_class: int | None = None, width: int = 200) -> str:
    """Every disagreement, grouped by (group, class), largest class first, one line each with
    both verdicts and their error text. `per_class` caps the lines shown per class (the report
    file always has them all)."""
    by_class: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for d in disagreements:
        by_class[(d["group"], d["class"])].append(d)
    out = []
    for (group, cls), items in sorted(by_class.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][1])):
        out.append(f"{group}: {cls} ({len(items)})")
        shown = items if per_class is None else items[:per_class]
        for d in shown:
            ours, ref = d["rlvr"], d["reference"]
            out.append(f"  {d['key']}: rlvr {_said(ours, width // 2)} | ref {_said(ref, width // 2)}")
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
                            f" ({g.disagree} disagreements)")
    return failures


def write_report(path: str, meta: dict, groups: dict[str, GroupSummary], disagreements: list[dict]) -> None:
    """The machine-readable report, written atomically (temp file + rename)."""
    report = {"meta": meta, "groups": {k: g.to_dict() for k, g in groups.items()}, "disagreements": disagreements}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".report.", suffix=".part")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(report, fh, indent=1)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
