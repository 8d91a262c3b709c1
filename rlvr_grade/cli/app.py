"""The Typer app: what `rlvr-grade --help` says, the global options, and the one place where
an exception from any command becomes `Error: ...`, a tip and its exit code."""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperGroup

from rlvr_grade.cli.errors import EXIT_CODES, report
from rlvr_grade.cli.options import verbose_option
from rlvr_grade.version import __version__

HELP = (
    "Batch grader for RL with verifiable rewards: runs each rollout's tests in an isolated sandbox "
    "and writes the rows back with reward columns (reward, status, tests passed, error, flags).\n\n"
    "Start with `rlvr-grade score rollouts.jsonl -o scored.jsonl`; `rlvr-grade doctor` says what this "
    "machine's sandbox can do.\n\n" + EXIT_CODES
)


class Commands(TyperGroup):
    """The root group: every command (and subcommand) runs inside its error handler."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - the one handler
            if _is_control(exc):
                raise  # --help, typer.Exit(n), usage errors of the parser (exit 2): the parser's own
            raise typer.Exit(report(exc, ctx.invoked_subcommand)) from None


def _is_control(exc: BaseException) -> bool:
    """An exception the command-line parser uses for control flow (typer vendors click from
    0.25 on: its exceptions, or click's for an older typer)."""
    kinds: list[type] = [typer.Exit, typer.Abort]
    try:
        from typer.exceptions import TyperException

        kinds.append(TyperException)
    except ImportError:
        pass
    click = sys.modules.get("click")
    if click is not None:
        kinds += [click.exceptions.Exit, click.exceptions.Abort, click.exceptions.ClickException]
    return isinstance(exc, tuple(kinds))


app = typer.Typer(
    cls=Commands,
    add_completion=False,
    no_args_is_help=True,
    help=HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rlvr-grade {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
    verbose: bool = verbose_option(panel=None),
) -> None:
    pass


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # before a command started (its own are handled above)
        sys.exit(130)
