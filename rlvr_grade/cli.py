"""Typer commands only: parse, call the library, render. No grading logic lives here.

Exit codes: 0 success; 1 a CI gate failed (--fail-under, --fail-on-regression); 2 bad usage,
unusable input or an output that cannot be written; 3 the sandbox backend could not start or
stopped working mid-run; 130 interrupted."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Optional

import typer

from rlvr_grade import __version__
from rlvr_grade.cli_env import env_app

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=__doc__,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class Preset(str, Enum):
    none = "none"
    humaneval = "humaneval"
    mbpp = "mbpp"
    leetcode = "leetcode"


class Extract(str, Enum):
    auto = "auto"
    none = "none"
    first = "first"
    last = "last"


class Style(str, Enum):
    auto = "auto"
    pytest = "pytest"
    asserts = "asserts"
    stdio = "stdio"
    call = "call"


class BackendName(str, Enum):
    local = "local"
    gvisor = "gvisor"
    beam = "beam"


class OnSuspicious(str, Enum):
    flag = "flag"
    zero = "zero"


class Shape(str, Enum):
    binary = "binary"
    fraction = "fraction"
    bonus = "bonus"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rlvr-grade {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """Batch grader for RL with verifiable rewards: runs each rollout's tests in an isolated
    sandbox and writes the rows back with reward columns.

    Exit codes: 0 ok; 1 a CI gate failed (--fail-under, --fail-on-regression); 2 bad usage,
    input or output path; 3 the sandbox backend could not start or stopped working; 130
    interrupted."""


@app.command()
def score(
    input: str = typer.Argument(..., help="Rollouts: .jsonl, .jsonl.gz, .parquet, or - for stdin."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output file (.jsonl, .jsonl.gz, .parquet) or - for stdout."),
    completion_col: str = typer.Option("completion", help="Column holding the model's completion."),
    tests_col: str = typer.Option("tests", help="Column holding the tests."),
    id_col: Optional[str] = typer.Option(None, help="Column identifying a row (for messages)."),
    group_col: Optional[str] = typer.Option(None, help="Rows sharing this column are samples of one problem (pass@k)."),
    preset: Preset = typer.Option(Preset.none, help="Column layout of a known dataset."),
    extract: Extract = typer.Option(Extract.auto, help="Code extraction from markdown fences."),
    test_style: Style = typer.Option(Style.auto, help="How the tests run (auto: per row)."),
    reward: Shape = typer.Option(Shape.binary, help="binary: 1 if all pass; fraction: passed/total; bonus: small reward for code that runs."),
    bonus: float = typer.Option(0.1, help="Reward for code that runs cleanly but fails tests (--reward bonus)."),
    on_suspicious: OnSuspicious = typer.Option(OnSuspicious.flag, help="flag: list reward-hacking signs in the `flags` column; zero: also set a flagged row's reward to 0."),
    concurrency: int = typer.Option(0, "-j", "--concurrency", help="Checks run at once (default: CPU count + 2)."),
    timeout: float = typer.Option(10.0, help="CPU seconds per check (the real limit)."),
    wall_timeout: Optional[float] = typer.Option(None, help="Wall-clock backstop per check (default 2 x timeout + 5 s)."),
    memory: int = typer.Option(512, help="Memory per check, MiB."),
    backend: BackendName = typer.Option(BackendName.local, help="Sandbox backend: local (namespaces, default), gvisor (runsc per check), beam (a Beam sandbox per check; needs the beam extra)."),
    env: Optional[str] = typer.Option(None, "--env", metavar="SPEC|NAME|ID", help="The environment checks run in: a requirements file (built first if need be), or a built one's name or id (see `rlvr-grade env`); part of the cache key. Default: stdlib + pytest."),
    env_col: str = typer.Option("env", help="Column naming a row's own environment (a name or id); an empty value means --env."),
    beam_image: Optional[str] = typer.Option(None, help="Beam runner image: a python version (python3.11, the default, + pytest) or an image id; part of the cache key."),
    beam_max_creates: int = typer.Option(16, help="Beam sandboxes being created at once (the rest wait), whatever --concurrency is."),
    beam_rpc_timeout: float = typer.Option(30.0, help="Seconds one Beam call may take, its own retries included."),
    max_infra_failures: int = typer.Option(20, help="Stop the run (exit 3) when this many checks in a row fail in the sandbox backend and a probe check fails too (0: never)."),
    backend_dead_after: float = typer.Option(30.0, help="Stop the run (exit 3) when the backend fails every check for this many seconds (0: never)."),
    strict: bool = typer.Option(False, help="Abort on the first malformed row instead of marking it invalid_input."),
    cache: Optional[str] = typer.Option(
        None,
        "--cache",
        metavar="PATH",
        help="SQLite result cache (default: see above). A rerun grades only rows it has not seen.",
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the cache (duplicates within the run are still graded once)."),
    language: str = typer.Option("python", help="stdio programs: python, c, cpp, java, javascript (a `language` column wins)."),
    compare: Optional[str] = typer.Option(None, help="stdio/call output comparison: tokens (stdio default), exact, lines-unordered, float[:ABS[:REL]] (a `compare` column wins)."),
    case_timeout: Optional[float] = typer.Option(None, help="stdio/call: CPU seconds per case (default: the whole --timeout, which is the row's budget)."),
    run_all_cases: bool = typer.Option(False, "--run-all-cases", help="stdio/call: judge every case instead of stopping at the first failure (for --reward fraction)."),
    fn_name: Optional[str] = typer.Option(None, help="call style: the function (or Solution method) to call (a `fn_name` column wins)."),
    output_validator: Optional[str] = typer.Option(None, help="stdio: a Kattis/ICPC output validator directory (validate.cc + headers, or one .py), run in its own sandbox."),
    validator_args: Optional[str] = typer.Option(None, help="Extra arguments for --output-validator, space separated."),
    summary_json: Optional[str] = typer.Option(None, help="Also write the summary as JSON to this path."),
    fail_under: Optional[float] = typer.Option(None, help="Exit 1 if the pass rate is below this (0-1)."),
    baseline: Optional[str] = typer.Option(None, help="A previous run's --summary-json: print which problems regressed or improved."),
    fail_on_regression: bool = typer.Option(False, help="Exit 1 if any problem regressed since --baseline (named in the message)."),
    junit_xml: Optional[str] = typer.Option(None, help="Write a JUnit XML report here (one testcase per row)."),
    summary_problems: int = typer.Option(10_000, help="Cap on the per-problem pass map in --summary-json (0: leave it out)."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress bar and no summary table."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show tracebacks on errors."),
    allow_unsafe: bool = typer.Option(
        False, "--allow-network-and-writable-fs-UNSAFE",
        help="Run untrusted code even where the sandbox cannot cut the network or make the filesystem read-only "
        "(no root and no user namespaces). Checks can then reach the network and write your files.",
    ),
) -> None:
    """Grade every rollout and write the rows back with reward columns.

    Results are cached by content hash, so a rerun (or a resumed, interrupted run) executes only what it has not seen, and identical rows are graded once. The cache lives at $RLVR_GRADE_CACHE, else $XDG_CACHE_HOME/rlvr-grade/cache.sqlite (~/.cache/rlvr-grade/cache.sqlite); --cache PATH picks another file, --no-cache keeps none.

    CI: --fail-under, --baseline with --fail-on-regression, --junit-xml; under GitHub Actions
    (GITHUB_ACTIONS=true) a ::notice::/::error:: line and a table in $GITHUB_STEP_SUMMARY."""
    from rlvr_grade import console
    from rlvr_grade.api import ScoreOptions, StrictError, score_file
    from rlvr_grade.cache import CacheError
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import BackendUnavailable, InputError, Limits, SandboxError

    if output is None and summary_json is None and fail_under is None and junit_xml is None and baseline is None:
        console.error("nothing to write", tip="pass -o scored.jsonl (or -o - for stdout)")
        raise typer.Exit(2)
    if timeout <= 0 or memory <= 0:
        console.error("--timeout and --memory must be positive")
        raise typer.Exit(2)
    if max_infra_failures < 0 or backend_dead_after < 0:
        console.error("--max-infra-failures and --backend-dead-after must be >= 0 (0 disables)")
        raise typer.Exit(2)
    if verbose:
        import logging

        logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
        logging.getLogger("rlvr_grade").setLevel(logging.DEBUG)
    if fail_on_regression and baseline is None:
        console.error("--fail-on-regression needs --baseline PREVIOUS_SUMMARY.json")
        raise typer.Exit(2)
    from rlvr_grade import reports
    from rlvr_grade.io.writers import check_writable

    try:
        base = reports.load_baseline(baseline) if baseline else None
        for path, what in ((summary_json, "summary"), (junit_xml, "JUnit report")):
            if path:
                check_writable(path, what)
    except InputError as exc:
        console.error(str(exc), exc.tip)
        raise typer.Exit(2)
    limits = Limits(cpu_s=timeout, wall_s=wall_timeout, memory_mb=memory)
    from rlvr_grade.cache import default_cache_path

    cache_path = None if no_cache else (cache or default_cache_path())
    from rlvr_grade import compare as _compare
    from rlvr_grade import languages as _languages

    try:
        _languages.normalize(language)
        if compare:
            _compare.parse_mode(compare)
        if case_timeout is not None and case_timeout <= 0:
            raise ValueError("--case-timeout must be positive")
    except ValueError as exc:
        console.error(str(exc))
        raise typer.Exit(2)
    validator = None
    if output_validator:
        from rlvr_grade.checks.stdio_check import Validator

        try:
            validator = Validator.from_dir(output_validator, tuple((validator_args or "").split()))
        except (OSError, ValueError) as exc:
            console.error(f"--output-validator: {exc}")
            raise typer.Exit(2)
    options = ScoreOptions(
        checks=CheckOptions(
            completion_col=completion_col,
            tests_col=tests_col,
            id_col=id_col,
            group_col=group_col,
            preset=preset.value,  # type: ignore[arg-type]
            extract=extract.value,  # type: ignore[arg-type]
            test_style=test_style.value,  # type: ignore[arg-type]
            limits=limits,
            language=_languages.normalize(language),
            compare=compare,
            case_timeout=case_timeout,
            run_all=run_all_cases,
            fn_name=fn_name,
            validator=validator,
            env_col=env_col,
        ),
        reward=RewardConfig(shape=reward.value, bonus=bonus, on_suspicious=on_suspicious.value),  # type: ignore[arg-type]
        backend=backend.value,
        backend_options=_backend_options(backend.value, beam_image, beam_max_creates, beam_rpc_timeout)
        + ((("allow_unisolated", True),) if allow_unsafe and backend.value == "local" else ()),
        concurrency=concurrency,
        strict=strict,
        cache=cache_path,
        env=env,
        max_infra_failures=max_infra_failures,
        backend_dead_after=backend_dead_after,
    )
    total = os.path.getsize(input) if input != "-" and os.path.isfile(input) else None
    progress = console.Progress(enabled=not quiet, total_bytes=total)
    resolved = options.checks.resolved()
    report = reports.RunReport(resolved.group_col, resolved.id_col, summary_problems, junit_xml)

    def on_row(r, o, done, _t):
        progress.update(o.status, done)
        report.add(r, o)

    try:
        try:
            summary = score_file(input, output, options, on_row=on_row, on_env_progress=None if quiet else console.err_line)
        except BaseException:
            report.abort()  # no half-written JUnit file
            raise
    except InputError as exc:
        progress.close()
        console.error(str(exc), exc.tip)
        raise typer.Exit(2)
    except CacheError as exc:
        progress.close()
        console.error(str(exc), tip="pass another --cache PATH, or --no-cache")
        raise typer.Exit(2)
    except StrictError as exc:
        progress.close()
        console.error(f"malformed row ({exc}); nothing was written", tip="drop --strict to mark such rows invalid_input and go on")
        raise typer.Exit(2)
    except BackendUnavailable as exc:
        progress.close()
        written = getattr(exc, "rows_written", 0)
        where = f" and written to {output}" if output and output != "-" else ""
        console.error(str(exc), tip=f"{written} rows graded{where}; rerun the same command once the backend is back: "
                      "graded rows come from the cache (--max-infra-failures 0 never stops)")
        if verbose:
            raise
        raise typer.Exit(3)
    except SandboxError as exc:
        progress.close()
        tip = getattr(exc, "tip", None) or "run `rlvr-grade doctor` to see what this machine allows"
        if "refusing to run untrusted code" in str(exc):
            tip = ("run as root or enable user namespaces; or, knowing checks may then use the network and write "
                   "your files, pass --allow-network-and-writable-fs-UNSAFE")
        console.error(str(exc), tip=tip)
        if verbose:
            raise
        raise typer.Exit(3)
    except KeyboardInterrupt:
        progress.close()
        console.error("interrupted")
        raise typer.Exit(130)
    except Exception as exc:
        progress.close()
        if verbose:
            raise
        console.error(f"{type(exc).__name__}: {exc}", tip="rerun with --verbose for the traceback")
        raise typer.Exit(1)
    progress.close()
    data = report.finish(summary.to_dict())
    _finish(data, summary_json, base, fail_under, fail_on_regression, table=not quiet)


def _finish(data: dict, summary_json: Optional[str], base: Optional[dict], fail_under: Optional[float], fail_on_regression: bool, table: bool, as_json: bool = False) -> None:
    """Shared tail of `score` and `summary`: baseline diff, outputs, GitHub lines, CI gates."""
    from rlvr_grade import console, reports

    diff = reports.compare_with_baseline(base, data) if base is not None else None
    if diff is not None:
        data["baseline"] = diff.to_dict()
    if summary_json:
        _write_json(summary_json, data)
    if as_json:
        import json

        typer.echo(json.dumps(data, indent=2))
    elif table:
        console.summary_table(data)
    if diff is not None:
        console.baseline_report(diff)
    failures = reports.gate_failures(data, diff, fail_under, fail_on_regression)
    reports.emit_github(data, diff, failures, echo=console.err_line)
    for message in failures:
        console.error(message)
    if failures:
        raise typer.Exit(1)


app.add_typer(env_app, name="env")

cache_app = typer.Typer(
    no_args_is_help=True,
    help="See and manage the result cache (default: $RLVR_GRADE_CACHE, else $XDG_CACHE_HOME/rlvr-grade/cache.sqlite).",
)
app.add_typer(cache_app, name="cache")

_CACHE_OPT = typer.Option(None, "--cache", metavar="PATH", help="Cache file (default: the one `score` uses).")


@cache_app.command("stats")
def cache_stats(
    cache: Optional[str] = _CACHE_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print the stats as JSON on stdout."),
) -> None:
    """Entries, size on disk, and which grader/schema versions and runtimes are present."""
    import json

    from rlvr_grade import cache as cache_mod
    from rlvr_grade import console

    try:
        st = cache_mod.stats(cache or cache_mod.default_cache_path())
    except cache_mod.CacheError as exc:
        console.error(str(exc))
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps(st.to_dict(), indent=2))
    else:
        console.cache_stats(st.to_dict(), cache_mod.SCHEMA_VERSION, __version__)


@cache_app.command("clear")
def cache_clear(
    cache: Optional[str] = _CACHE_OPT,
    older_than: Optional[str] = typer.Option(None, "--older-than", metavar="AGE", help="Only entries older than AGE (30d, 12h, 90m)."),
    grader_version: Optional[str] = typer.Option(None, "--grader-version", metavar="V", help="Only entries computed by grader version V."),
) -> None:
    """Delete cache entries (all of them unless filtered) and give the space back."""
    from rlvr_grade import cache as cache_mod
    from rlvr_grade import console

    try:
        age = cache_mod.parse_age(older_than) if older_than is not None else None
    except ValueError as exc:
        console.error(str(exc))
        raise typer.Exit(2)
    path = cache or cache_mod.default_cache_path()
    try:
        n = cache_mod.clear(path, older_than_s=age, grader_version=grader_version)
    except cache_mod.CacheError as exc:
        console.error(str(exc))
        raise typer.Exit(2)
    console.err.print(f"deleted {n} entries from {path}")


@app.command()
def summary(
    input: str = typer.Argument(..., help="A scored file (.jsonl, .jsonl.gz, .parquet) as `score -o` wrote it."),
    group_col: Optional[str] = typer.Option(None, help="Rows sharing this column are samples of one problem (pass@k, histogram)."),
    id_col: Optional[str] = typer.Option(None, help="Column identifying a row (problem map and JUnit names when no --group-col)."),
    preset: Preset = typer.Option(Preset.none, help="Column layout of a known dataset (sets --group-col/--id-col)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON on stdout instead of a table."),
    summary_json: Optional[str] = typer.Option(None, help="Also write the summary as JSON to this path."),
    summary_problems: int = typer.Option(10_000, help="Cap on the per-problem pass map (0: leave it out)."),
    baseline: Optional[str] = typer.Option(None, help="A previous run's summary JSON: print which problems regressed or improved."),
    fail_on_regression: bool = typer.Option(False, help="Exit 1 if any problem regressed since --baseline."),
    fail_under: Optional[float] = typer.Option(None, help="Exit 1 if the pass rate is below this (0-1)."),
    junit_xml: Optional[str] = typer.Option(None, help="Write a JUnit XML report here (one testcase per row)."),
) -> None:
    """Summarize an already-scored file: pass rate, pass@k, statuses, per-group histogram —
    the same numbers `score` reports, computed the same way."""
    from rlvr_grade import console, reports
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.types import InputError

    if fail_on_regression and baseline is None:
        console.error("--fail-on-regression needs --baseline PREVIOUS_SUMMARY.json")
        raise typer.Exit(2)
    resolved = CheckOptions(group_col=group_col, id_col=id_col, preset=preset.value).resolved()  # type: ignore[arg-type]
    try:
        base = reports.load_baseline(baseline) if baseline else None
        data = reports.summarize_scored(input, resolved.group_col, resolved.id_col, summary_problems, junit_xml)
    except InputError as exc:
        console.error(str(exc), exc.tip)
        raise typer.Exit(2)
    _finish(data, summary_json, base, fail_under, fail_on_regression, table=True, as_json=as_json)


@app.command(name="filter")
def filter_rows(
    input: str = typer.Argument(..., help="A scored file (.jsonl, .jsonl.gz, .parquet, - for stdin); unscored input is graded first."),
    output: str = typer.Option(..., "-o", "--output", help="Where the kept rows go (.jsonl, .jsonl.gz, .parquet, - for stdout)."),
    min_reward: Optional[float] = typer.Option(None, help="Keep rows with reward >= this."),
    max_reward: Optional[float] = typer.Option(None, help="Keep rows with reward <= this."),
    status: Optional[str] = typer.Option(None, help="Keep rows with one of these statuses, comma-separated (pass,fail)."),
    no_flags: bool = typer.Option(False, "--no-flags", help="Drop rows flagged as suspicious."),
    flag: list[str] = typer.Option([], "--flag", help="Keep only rows carrying this flag (repeatable)."),
    drop_flag: list[str] = typer.Option([], "--drop-flag", help="Drop rows carrying this flag (repeatable)."),
    group_col: Optional[str] = typer.Option(None, help="Rows sharing this column are samples of one problem."),
    group_pass_rate: Optional[str] = typer.Option(None, help="Keep whole groups whose pass rate is in this range: '0<x<1', '0<=x<=0.5', 'x>0'."),
    grade: Optional[bool] = typer.Option(None, "--grade/--no-grade", help="Grade the input first (default: only when it has no reward columns)."),
    save_scored: Optional[str] = typer.Option(None, help="When grading, also keep the scored file here."),
    completion_col: str = typer.Option("completion", help="When grading: column holding the completion."),
    tests_col: str = typer.Option("tests", help="When grading: column holding the tests."),
    preset: Preset = typer.Option(Preset.none, help="When grading: column layout of a known dataset."),
    concurrency: int = typer.Option(0, "-j", "--concurrency", help="When grading: checks run at once."),
    timeout: float = typer.Option(10.0, help="When grading: CPU seconds per check."),
    memory: int = typer.Option(512, help="When grading: memory per check, MiB."),
    reward: Shape = typer.Option(Shape.binary, help="When grading: reward shape."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Do not print what was kept."),
) -> None:
    """Keep rows, or whole groups, of a scored file by reward, status, flags and per-group
    pass rate; print what was kept and why on stderr. Group rules are decided over all of a
    group's rows, then row rules pick rows within the kept groups."""
    from rlvr_grade import console
    from rlvr_grade.api import make_options
    from rlvr_grade.filtering import FilterSpec, filter_file, parse_range
    from rlvr_grade.types import InputError, SandboxError

    try:
        rng = parse_range(group_pass_rate) if group_pass_rate is not None else None
        spec = FilterSpec(
            min_reward=min_reward,
            max_reward=max_reward,
            statuses=frozenset(x.strip() for x in status.split(",") if x.strip()) if status else None,
            no_flags=no_flags,
            with_flags=frozenset(flag),
            drop_flags=frozenset(drop_flag),
            group_col=group_col or ("task_id" if preset != Preset.none and group_pass_rate else None),
            group_pass_rate=rng,
        )
    except ValueError as exc:
        console.error(str(exc))
        raise typer.Exit(2)
    options = make_options(
        completion_col=completion_col, tests_col=tests_col, preset=preset.value, concurrency=concurrency,
        timeout=timeout, memory=memory, reward=reward.value,
    )
    try:
        report = filter_file(input, output, spec, grade=grade, grade_options=options, save_scored=save_scored,
                             on_note=lambda m: None if quiet else console.err.print(m))
    except InputError as exc:
        console.error(str(exc), exc.tip)
        raise typer.Exit(2)
    except SandboxError as exc:
        console.error(str(exc), tip="run `rlvr-grade doctor` to see what this machine allows")
        raise typer.Exit(3)
    if not quiet:
        for line in report.lines():
            console.err.print(line, markup=False, highlight=False)


@app.command()
def doctor(
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout."),
    require_full: bool = typer.Option(False, "--require-full", help="Exit 1 unless every protection is active."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show tracebacks on errors."),
) -> None:
    """Run a probe check in the local sandbox; report each protection as active or not, and why.

    Why not: not root, no user namespaces, no cgroup controller, old kernel, no libseccomp.
    Exit codes: 0 the probe ran; 1 with --require-full and a protection is off; 3 the sandbox
    could not start at all."""
    from rlvr_grade import console
    from rlvr_grade.doctor import diagnose
    from rlvr_grade.types import SandboxError

    try:
        report = diagnose()
    except SandboxError as exc:
        if verbose:
            raise
        console.error(str(exc), tip="rerun with --verbose for the traceback")
        raise typer.Exit(3)
    from rlvr_grade import languages

    if as_json:
        import json

        typer.echo(json.dumps({**report.to_dict(), "languages": languages.available()}, indent=2))
    else:
        width = max(len(p.name) for p in report.protections)
        for p in report.protections:
            typer.echo(f"{'active' if p.active else 'OFF   '}  {p.name:<{width}}  {p.detail}")
        level = report.isolation.get("level", "?")
        typer.echo(f"\nisolation level: {level} ({report.isolation.get('mode_reason', '')})")
        typer.echo("\nroot of a Python check (read-only; besides its own /tmp, /dev, /proc, /etc/passwd):")
        for line in report.root:
            typer.echo(f"  {line}")
        typer.echo("\nlanguages (stdio tests):")
        for line in languages.describe():
            typer.echo(f"  {line}")
        if report.score_refuses:
            typer.echo("score refuses to run untrusted code here unless --allow-network-and-writable-fs-UNSAFE is passed")
    if require_full and not report.all_active:
        raise typer.Exit(1)


def _backend_options(backend: str, beam_image: Optional[str], max_creates: int, rpc_timeout: float) -> tuple:
    if backend != "beam":
        return ()
    opts = {"max_creates": max_creates, "rpc_timeout": rpc_timeout}
    if beam_image:
        opts["image"] = beam_image
    return tuple(sorted(opts.items()))


def _write_json(path: str, data: dict) -> None:
    import json

    from rlvr_grade.io.writers import temp_beside

    fd, tmp = temp_beside(path)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
        fh.write("\n")
    os.replace(tmp, path)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
