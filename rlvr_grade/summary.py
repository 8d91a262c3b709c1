"""Pass rates, pass@k, status histogram and timings, accumulated row by row."""

from __future__ import annotations

import math
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rlvr_grade.types import STATUSES


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimator (Chen et al. 2021): 1 - C(n-c, k) / C(n, k)."""
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def _quantile(values: array, q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass
class Summary:
    rows: int = 0
    passed: int = 0
    reward_sum: float = 0.0
    rewarded: int = 0
    executed: int = 0
    cached: int = 0
    statuses: Counter = field(default_factory=Counter)
    durations: array = field(default_factory=lambda: array("d"))
    groups: dict[Any, list[int]] = field(default_factory=dict)  # group -> [n, passes]
    flagged: int = 0
    grader_errors: int = 0  # sandbox_error rows caused by a bug in the grader, not the backend
    unwritable_values: int = 0  # values the output format could not hold as they were (see io/writers)
    wall_s: float = 0.0
    isolation: dict[str, Any] = field(default_factory=dict)
    backend: str = "local"

    def add(self, outcome: Any, group: Any = None) -> None:
        self.rows += 1
        self.statuses[outcome.status] += 1
        if outcome.status == "pass":
            self.passed += 1
        if outcome.reward is not None:
            self.reward_sum += outcome.reward
            self.rewarded += 1
        if outcome.cached:
            self.cached += 1
        elif outcome.status not in ("invalid_input",):
            self.executed += 1
            self.durations.append(outcome.duration_ms)
        if outcome.flags:
            self.flagged += 1
        if outcome.grader_error:
            self.grader_errors += 1
        if group is not None:
            key = group if isinstance(group, (str, int, float, bool)) else repr(group)
            g = self.groups.setdefault(key, [0, 0])
            if outcome.status != "sandbox_error":
                g[0] += 1
                g[1] += outcome.status == "pass"

    @property
    def graded(self) -> int:
        """Rows with a verdict about the candidate (infrastructure failures excluded)."""
        return self.rows - self.statuses.get("sandbox_error", 0)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0

    def pass_at(self) -> dict[str, float]:
        out = {}
        for k in (1, 5, 10):
            vals = [pass_at_k(n, c, k) for n, c in self.groups.values() if n >= k]
            if vals:
                out[f"pass@{k}"] = sum(vals) / len(vals)
        return out

    def group_histogram(self) -> dict[str, int]:
        """Per-group pass rates bucketed: 0, (0,0.25], ..., (0.75,1), 1."""
        buckets = {"0": 0, "(0,0.25]": 0, "(0.25,0.5]": 0, "(0.5,0.75]": 0, "(0.75,1)": 0, "1": 0}
        for n, c in self.groups.values():
            if n == 0:
                continue
            r = c / n
            if r == 0:
                buckets["0"] += 1
            elif r == 1:
                buckets["1"] += 1
            elif r <= 0.25:
                buckets["(0,0.25]"] += 1
            elif r <= 0.5:
                buckets["(0.25,0.5]"] += 1
            elif r <= 0.75:
                buckets["(0.5,0.75]"] += 1
            else:
                buckets["(0.75,1)"] += 1
        return buckets

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rows": self.rows,
            "graded": self.graded,
            "passed": self.passed,
            "pass_rate": round(self.pass_rate, 6),
            "mean_reward": round(self.reward_sum / self.rewarded, 6) if self.rewarded else None,
            "statuses": {s: self.statuses.get(s, 0) for s in STATUSES},
            "executed": self.executed,
            "cached": self.cached,
            "flagged": self.flagged,
            "grader_errors": self.grader_errors,
            "check_ms": {
                "p50": _round(_quantile(self.durations, 0.5)),
                "p95": _round(_quantile(self.durations, 0.95)),
            },
            "wall_s": round(self.wall_s, 3),
            "throughput_rows_per_s": round(self.rows / self.wall_s, 2) if self.wall_s > 0 else None,
            "backend": self.backend,
            "isolation": self.isolation,
        }
        if self.unwritable_values:
            out["unwritable_values"] = self.unwritable_values
        if self.groups:
            out["groups"] = len(self.groups)
            out["pass_at_k"] = {k: round(v, 6) for k, v in self.pass_at().items()}
            out["group_pass_rate_histogram"] = self.group_histogram()
        return out


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 2)
