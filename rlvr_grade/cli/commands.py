"""The commands. Each parses (the option groups build and validate themselves), calls the
library and renders; errors propagate to the app's one handler (app.py)."""

from __future__ import annotations

import os
from typing import Any, Optional

import typer

from rlvr_grade.cli.app import app
from rlvr_grade.cli.errors import EXIT_CODES, UsageError
from rlvr_grade.cli.options import (
    OUTPUT,
    Backend,
    Columns,
    Grading,
    Keep,
    Limits,
    Reports,
    json_option,
    quiet_option,
    score_options,
    uses,
    verbose_option,
)
from rlvr_grade.cli_env import env_app
from rlvr_grade.version import __version__

SCORE_HELP = """Grade every rollout and write the rows back with reward columns.

Results are cached by content hash, so a rerun (or a resumed, interrupted run) executes only what it has not seen, and identical rows are graded once. The cache lives at $RLVR_GRADE_CACHE, else $XDG_CACHE_HOME/rlvr-grade/cache.sqlite (~/.cache/rlvr-grade/cache.sqlite); --cache PATH picks another file, --no-cache keeps none.

CI: --fail-under, --baseline with --fail-on-regression, --junit-xml; under GitHub Actions (GITHUB_ACTIONS=true) a ::notice::/::error:: line and a table in $GITHUB_STEP_SUMMARY."""

# Help texts hold one line per paragraph: rich prints a line break inside a paragraph as it is,
# so a sentence broken across source lines would come out ragged (tests/cli/test_cli.py checks).
SUMMARY_HELP = "Summarize an already-scored file: pass rate, pass@k, statuses, per-group histogram — the same numbers `score` reports, computed the same way."

FILTER_HELP = """Keep rows, or whole groups, of a scored file by reward, status, flags and per-group pass rate; print what was kept and why on stderr.

Group rules are decided over all of a group's rows, then row rules pick rows within the kept groups. Unscored input is graded first, with the Input, Grading and Limits options."""

DOCTOR_HELP = """Run a probe check in the local sandbox; report each protection as active or not, and why.

Why a protection can be off: not root, no user namespaces, no cgroup controller, an old kernel, an architecture without a syscall table (seccomp: x86_64 and aarch64).

Exit codes: 0 the probe ran; 1 with --require-full and a protection is off; 3 the sandbox could not start at all."""


@app.command(help=SCORE_HELP, epilog=EXIT_CODES)
@uses(columns=Columns, grading=Grading, limits=Limits, sandbox=Backend, reports=Reports)
def score(
    input: str = typer.Argument(..., help="Rollouts: .jsonl, .jsonl.gz, .parquet, or - for stdin."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output file (.jsonl, .jsonl.gz, .parquet) or - for stdout.", rich_help_panel=OUTPUT),
    quiet: bool = quiet_option(),
    verbose: bool = verbose_option(),
    *, columns: Columns, grading: Grading, limits: Limits, sandbox: Backend, reports: Reports,
) -> None:
    from rlvr_grade import console
    from rlvr_grade.api import score_file

    reports.require_something(output)
    base = reports.load_baseline()
    options = score_options(columns, grading, limits, sandbox)
    checks = options.checks.resolved()
    collected = reports.collector(checks.group_col, checks.id_col)
    progress = console.Progress(enabled=not quiet, total_bytes=os.path.getsize(input) if input != "-" and os.path.isfile(input) else None)

    def on_row(rollout: Any, outcome: Any, done: int | None, _total: int | None) -> None:
        progress.update(outcome.status, done)
        collected.add(rollout, outcome)

    try:
        summary = score_file(input, output, options, on_row=on_row, on_env_progress=None if quiet else console.err_line)
    except BaseException:
        collected.abort()  # no half-written JUnit file
        raise
    finally:
        progress.close()
    reports.finish(collected.finish(summary.to_dict()), base, table=not quiet)


@app.command(help=SUMMARY_HELP, epilog=EXIT_CODES)
@uses(columns=Columns.only("group_col", "id_col", "preset"), reports=Reports)
def summary(
    input: str = typer.Argument(..., help="A scored file (.jsonl, .jsonl.gz, .parquet) as `score -o` wrote it."),
    as_json: bool = json_option("the summary instead of a table"),
    *, columns: Columns, reports: Reports,
) -> None:
    from rlvr_grade.reports import summarize_scored

    checks = columns.resolved()
    base = reports.load_baseline()
    data = summarize_scored(input, checks.group_col, checks.id_col, reports.summary_problems, reports.junit_xml)
    reports.finish(data, base, table=True, as_json=as_json)


@app.command(name="filter", help=FILTER_HELP, epilog=EXIT_CODES)
@uses(keep=Keep, columns=Columns.only("group_col", "completion_col", "tests_col", "preset"),
      grading=Grading.only("reward"), limits=Limits.only("concurrency", "timeout", "memory"), sandbox=Backend.only("env", "preload"))
def filter_rows(
    input: str = typer.Argument(..., help="A scored file (.jsonl, .jsonl.gz, .parquet, - for stdin); unscored input is graded first."),
    output: str = typer.Option(..., "-o", "--output", help="Where the kept rows go (.jsonl, .jsonl.gz, .parquet, - for stdout).", rich_help_panel=OUTPUT),
    grade: Optional[bool] = typer.Option(None, "--grade/--no-grade", help="Grade the input first (default: only when it has no reward columns)."),
    save_scored: Optional[str] = typer.Option(None, help="When grading, also keep the scored file here.", rich_help_panel=OUTPUT),
    quiet: bool = quiet_option("Do not print what was kept."),
    *, keep: Keep, columns: Columns, grading: Grading, limits: Limits, sandbox: Backend,
) -> None:
    from dataclasses import replace

    from rlvr_grade import console
    from rlvr_grade.filtering import filter_file

    spec = keep.spec(columns)
    options = score_options(columns.replace(group_col=None), grading, limits)  # the group column is the rules'
    options = replace(options, env=sandbox.env, preload=sandbox.preload)
    report = filter_file(input, output, spec, grade=grade, grade_options=options, save_scored=save_scored,
                         on_note=lambda m: None if quiet else console.err.print(m))
    if not quiet:
        for line in report.lines():
            console.err.print(line, markup=False, highlight=False)


@app.command(help=DOCTOR_HELP)
def doctor(
    as_json: bool = json_option("the report"),
    require_full: bool = typer.Option(False, "--require-full", help="Exit 1 unless every protection is active."),
    env: Optional[str] = typer.Option(None, "--env", metavar="NAME|ID|SPEC", help="Probe a check in this built environment and list its root (default: the default environment)."),
    verbose: bool = verbose_option(),
) -> None:
    from rlvr_grade.doctor import diagnose
    from rlvr_harness import languages

    report = diagnose(env=env)
    if as_json:
        import json

        typer.echo(json.dumps({**report.to_dict(), "languages": languages.available()}, indent=2))
    else:
        width = max(len(p.name) for p in report.protections)
        for p in report.protections:
            typer.echo(f"{'active' if p.active else 'OFF   '}  {p.name:<{width}}  {p.detail}")
        typer.echo(f"\nisolation level: {report.isolation.get('level', '?')} ({report.isolation.get('mode_reason', '')})")
        for warning in report.warnings:
            typer.echo(f"warning: {warning}")
        if report.host.get("gvisor_limits"):
            typer.echo(f"gvisor backend's limits: {report.host['gvisor_limits']}")
        typer.echo(f"\nenvironment: {report.isolation.get('environment', '?')}")
        typer.echo("\nroot of a Python check in it (read-only; besides its own /tmp, /dev, /proc, /etc/passwd):")
        for line in report.root:
            typer.echo(f"  {line}")
        typer.echo("\nplanted outside the root, and absent inside it:")
        for path in report.planted:
            typer.echo(f"  {path}")
        typer.echo("\nlanguages (stdio tests):")
        for line in languages.describe():
            typer.echo(f"  {line}")
        if report.score_refuses:
            typer.echo("score refuses to run untrusted code here unless --allow-network-and-writable-fs-UNSAFE is passed")
    if require_full and not report.all_active:
        raise typer.Exit(1)


app.add_typer(env_app, name="env")

cache_app = typer.Typer(
    no_args_is_help=True,
    help="See and manage the result cache (default: $RLVR_GRADE_CACHE, else $XDG_CACHE_HOME/rlvr-grade/cache.sqlite).",
)
app.add_typer(cache_app, name="cache")


def cache_file_option() -> Any:
    return typer.Option(None, "--cache", metavar="PATH", help="Cache file (default: the one `score` uses).")


@cache_app.command("stats")
def cache_stats(cache: Optional[str] = cache_file_option(), as_json: bool = json_option("the stats")) -> None:
    """Entries, size on disk, and which grader/schema versions and runtimes are present."""
    from rlvr_grade import cache as cache_mod
    from rlvr_grade import console

    st = cache_mod.stats(cache or cache_mod.default_cache_path())
    if as_json:
        import json

        typer.echo(json.dumps(st.to_dict(), indent=2))
    else:
        console.cache_stats(st.to_dict(), cache_mod.SCHEMA_VERSION, __version__)


@cache_app.command("clear")
def cache_clear(
    cache: Optional[str] = cache_file_option(),
    older_than: Optional[str] = typer.Option(None, "--older-than", metavar="AGE", help="Only entries older than AGE (30d, 12h, 90m)."),
    grader_version: Optional[str] = typer.Option(None, "--grader-version", metavar="V", help="Only entries computed by grader version V."),
) -> None:
    """Delete cache entries (all of them unless filtered) and give the space back."""
    from rlvr_grade import cache as cache_mod
    from rlvr_grade import console

    try:
        age = cache_mod.parse_age(older_than) if older_than is not None else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    path = cache or cache_mod.default_cache_path()
    n = cache_mod.clear(path, older_than_s=age, grader_version=grader_version)
    console.err.print(f"deleted {n} entries from {path}")
