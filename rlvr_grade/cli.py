"""Typer commands only: parse, call the library, render. No grading logic lives here.

Exit codes: 0 success; 1 the pass rate is below --fail-under; 2 bad usage or unusable input;
3 the sandbox could not start; 130 interrupted."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Optional

import typer

from rlvr_grade import __version__

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


class Extract(str, Enum):
    auto = "auto"
    none = "none"
    first = "first"
    last = "last"


class Style(str, Enum):
    auto = "auto"
    pytest = "pytest"
    asserts = "asserts"


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

    Exit codes: 0 ok; 1 pass rate below --fail-under; 2 bad usage or input; 3 sandbox could
    not start; 130 interrupted."""


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
    concurrency: int = typer.Option(0, "-j", "--concurrency", help="Checks run at once (default: CPU count)."),
    timeout: float = typer.Option(10.0, help="CPU seconds per check (the real limit)."),
    wall_timeout: Optional[float] = typer.Option(None, help="Wall-clock backstop per check (default 2 x timeout + 5 s)."),
    memory: int = typer.Option(512, help="Memory per check, MiB."),
    backend: str = typer.Option("local", help="Sandbox backend."),
    strict: bool = typer.Option(False, help="Abort on the first malformed row instead of marking it invalid_input."),
    summary_json: Optional[str] = typer.Option(None, help="Also write the summary as JSON to this path."),
    fail_under: Optional[float] = typer.Option(None, help="Exit 1 if the pass rate is below this (0-1)."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress bar and no summary table."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show tracebacks on errors."),
) -> None:
    """Grade every rollout and write the rows back with reward columns."""
    from rlvr_grade import console
    from rlvr_grade.api import ScoreOptions, StrictError, score_file
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import InputError, Limits, SandboxError

    if output is None and summary_json is None and fail_under is None:
        console.error("nothing to write", tip="pass -o scored.jsonl (or -o - for stdout)")
        raise typer.Exit(2)
    if timeout <= 0 or memory <= 0:
        console.error("--timeout and --memory must be positive")
        raise typer.Exit(2)
    limits = Limits(cpu_s=timeout, wall_s=wall_timeout, memory_mb=memory)
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
        ),
        reward=RewardConfig(shape=reward.value, bonus=bonus, on_suspicious=on_suspicious.value),  # type: ignore[arg-type]
        backend=backend,
        concurrency=concurrency,
        strict=strict,
    )
    total = os.path.getsize(input) if input != "-" and os.path.isfile(input) else None
    progress = console.Progress(enabled=not quiet, total_bytes=total)
    try:
        summary = score_file(
            input,
            output,
            options,
            on_row=lambda r, o, done, _t: progress.update(o.status, done),
        )
    except InputError as exc:
        progress.close()
        console.error(str(exc), exc.tip)
        raise typer.Exit(2)
    except StrictError as exc:
        progress.close()
        console.error(f"malformed row ({exc}); nothing was written", tip="drop --strict to mark such rows invalid_input and go on")
        raise typer.Exit(2)
    except SandboxError as exc:
        progress.close()
        console.error(str(exc), tip="run `rlvr-grade doctor` to see what this machine allows")
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
    data = summary.to_dict()
    if summary_json:
        _write_json(summary_json, data)
    if not quiet:
        console.summary_table(data)
    if fail_under is not None and data["pass_rate"] < fail_under:
        console.error(f"pass rate {data['pass_rate']:.4f} is below --fail-under {fail_under}")
        raise typer.Exit(1)


def _write_json(path: str, data: dict) -> None:
    import json
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".summary.", suffix=".part")
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
        fh.write("\n")
    os.replace(tmp, path)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
