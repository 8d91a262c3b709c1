"""The one module that talks to the terminal: progress, tables, error lines. All on stderr;
stdout is reserved for data (JSONL written to `-o -`)."""

from __future__ import annotations

import sys
from typing import Any

_console: list[Any] = []


def stderr_console() -> Any:
    """The rich Console on stderr, made on first use: importing rich costs ~0.1 s of every
    start, and a quiet run that ends well never prints through it."""
    if not _console:
        from rich.console import Console

        _console.append(Console(stderr=True, highlight=False, soft_wrap=True))
    return _console[0]


def __getattr__(name: str) -> Any:  # `console.err`, as callers know it
    if name == "err":
        return stderr_console()
    raise AttributeError(name)


def error(message: str, tip: str | None = None) -> None:
    from rich.markup import escape

    # Messages quote commands like `pip install 'rlvr-grade[beam]'`: brackets are not markup.
    stderr_console().print(f"[bold red]Error:[/] {escape(message)}", markup=True)
    if tip:
        stderr_console().print(f"[yellow]Tip:[/] {escape(tip)}", markup=True)


def warn(message: str) -> None:
    stderr_console().print(f"[yellow]Warning:[/] {message}")


class Progress:
    """A tqdm bar advancing by bytes read (rows for stdin). Silent when stderr is not a
    terminal or when asked."""

    def __init__(self, enabled: bool, total_bytes: int | None):
        self.bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm

            if total_bytes:
                self.bar = tqdm(total=total_bytes, unit="B", unit_scale=True, file=sys.stderr, dynamic_ncols=True)
            else:
                self.bar = tqdm(unit=" rows", file=sys.stderr, dynamic_ncols=True)
        self._last = 0
        self._by_bytes = bool(total_bytes)
        self.rows = 0
        self.passed = 0

    def update(self, status: str, bytes_read: int | None) -> None:
        self.rows += 1
        self.passed += status == "pass"
        if self.bar is None:
            return
        if self._by_bytes and bytes_read is not None:
            self.bar.update(max(0, bytes_read - self._last))
            self._last = max(self._last, bytes_read)
        elif not self._by_bytes:
            self.bar.update(1)
        if self.rows % 16 == 0:
            self.bar.set_postfix_str(f"{self.rows} rows, pass {self.passed / self.rows:.1%}", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def summary_table(s: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title="rlvr-grade summary", show_header=False, title_justify="left")
    table.add_column("metric", style="bold")
    table.add_column("value")
    table.add_row("rows", str(s["rows"]))
    table.add_row("pass rate", f"{s['pass_rate']:.2%}  ({s['passed']}/{s['graded']})")
    if s.get("mean_reward") is not None:
        table.add_row("mean reward", f"{s['mean_reward']:.4f}")
    statuses = ", ".join(f"{k} {v}" for k, v in s["statuses"].items() if v)
    table.add_row("statuses", statuses or "-")
    table.add_row("executed / cached", f"{s['executed']} / {s['cached']}")
    ms = s["check_ms"]
    if ms["p50"] is not None:
        table.add_row("check time", f"p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms")
    if s.get("throughput_rows_per_s"):
        table.add_row("throughput", f"{s['throughput_rows_per_s']:.1f} rows/s over {s['wall_s']:.1f} s")
    if s.get("pass_at_k"):
        table.add_row("pass@k", ", ".join(f"{k} {v:.4f}" for k, v in s["pass_at_k"].items()))
    if s.get("group_pass_rate_histogram"):
        hist = ", ".join(f"{k}: {v}" for k, v in s["group_pass_rate_histogram"].items())
        table.add_row(f"groups ({s['groups']}) by pass rate", hist)
    if s.get("flagged"):
        table.add_row("flagged as suspicious", str(s["flagged"]))
    if s.get("grader_errors"):
        table.add_row("grader errors", f"{s['grader_errors']} rows (sandbox_error; please report: rerun with --verbose for tracebacks)")
    if s.get("unwritable_values"):
        table.add_row("values not written as they were", f"{s['unwritable_values']} (see the error column docs; JSONL keeps them)")
    iso = s.get("isolation") or {}
    if "backend" in s:  # absent for `rlvr-grade summary` of a file: where it ran is unknown
        table.add_row("sandbox", f"{s.get('backend')} ({iso.get('level', 'isolated' if iso.get('isolated') else 'NOT isolated')})")
    if iso.get("memory snapshots"):
        table.add_row("memory snapshots", str(iso["memory snapshots"]))
    stderr_console().print(table)


def err_line(line: str) -> None:
    """A raw line on stderr (GitHub workflow commands must not be wrapped or styled)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def baseline_report(diff: Any) -> None:
    """Regressed / improved problems against a baseline, on stderr."""
    stderr_console().print(
        f"vs baseline: [bold]{len(diff.regressed)}[/] regressed, {len(diff.improved)} improved, "
        f"{diff.unchanged} unchanged" + (f", {len(diff.missing)} missing" if diff.missing else "")
        + (f", {len(diff.new)} new" if diff.new else ""),
        markup=True,
    )
    for label, changes in (("regressed", diff.regressed), ("improved", diff.improved)):
        for c in changes[:50]:
            stderr_console().print(f"  {label}: {c.problem}  {c.before} -> {c.now}", markup=False)
        if len(changes) > 50:
            stderr_console().print(f"  ... and {len(changes) - 50} more {label}")
    if diff.truncated:
        warn("the baseline's or this run's problem map was capped (--summary-problems): the comparison is partial")


def cache_stats(s: dict[str, Any], schema: int, version: str) -> None:
    """`rlvr-grade cache stats` as a small table on stderr."""
    import datetime

    def when(ts: float | None) -> str:
        return datetime.datetime.fromtimestamp(ts).isoformat(timespec="seconds") if ts else "-"

    if not s["exists"]:
        stderr_console().print(f"no cache at {s['path']}")
        return
    from rich.table import Table

    t = Table(title=f"cache {s['path']}", show_header=False)
    t.add_row("entries", str(s["entries"]))
    t.add_row("size", f"{s['bytes'] / 1e6:.2f} MB")
    t.add_row("schemas", ", ".join(f"v{k}: {v}" + (" (this grader)" if int(k) == schema else "") for k, v in s["schemas"].items()) or "-")
    t.add_row("grader versions", ", ".join(f"{k}: {v}" + (" (this grader)" if k == version else "") for k, v in s["graders"].items()) or "-")
    t.add_row("statuses", ", ".join(f"{k}: {v}" for k, v in s["statuses"].items()) or "-")
    for rt in s["runtimes"]:
        fp = rt["fingerprint"]
        backend = fp.get("backend", {})
        t.add_row(f"runtime {rt['id']}", f"{rt['entries']} entries; grader {fp.get('grader')} ({fp.get('code')}), backend {backend}")
    t.add_row("oldest / newest", f"{when(s['oldest'])} / {when(s['newest'])}")
    stderr_console().print(t)
