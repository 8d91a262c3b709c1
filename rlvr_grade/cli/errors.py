"""One error handler for every command: `Error: <one line>`, an optional `Tip:`, and an exit
code chosen by the exception's type (never by its text). The traceback only with --verbose.

Library exceptions carry what the user needs (`tip`, `rows_written`...); this module only
decides how they look and which exit code they mean."""

from __future__ import annotations

import sys
from typing import Any

EXIT_CODES = (
    "Exit codes: 0 ok; 1 a CI gate failed (--fail-under, --fail-on-regression) or an unexpected error; "
    "2 bad usage, unusable input, or an output that cannot be written (said before any row is graded); "
    "3 the sandbox backend could not start or stopped working mid-run; 130 interrupted."
)


class UsageError(Exception):
    """Options that do not go together or a value out of range (exit 2); raised by the option
    groups' validation, before any work."""

    def __init__(self, message: str, tip: str | None = None):
        super().__init__(message)
        self.tip = tip


class GateFailed(Exception):
    """A CI gate failed (exit 1): one message per gate."""

    def __init__(self, messages: list[str]):
        super().__init__("; ".join(messages))
        self.messages = messages


# Set by --verbose (global, or on a command): every error then shows its traceback.
VERBOSE: list[bool] = [False]


def set_verbose(on: bool) -> None:
    if on:
        VERBOSE[0] = True
        import logging

        logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
        logging.getLogger("rlvr_grade").setLevel(logging.DEBUG)  # grader errors' tracebacks


def exit_code(exc: BaseException) -> int:
    """The exit code an exception means, by its type."""
    from rlvr_grade.api import StrictError
    from rlvr_grade.cache import CacheError
    from rlvr_grade.types import InputError, SandboxError

    if isinstance(exc, KeyboardInterrupt):
        return 130
    if isinstance(exc, GateFailed):
        return 1
    if isinstance(exc, (UsageError, InputError, CacheError, StrictError)):
        return 2
    if isinstance(exc, SandboxError):
        return 3
    return 1


def message_and_tip(exc: BaseException, command: str | None) -> tuple[str, str | None]:
    """What the user reads for `exc`: one line and an optional tip, chosen by its type."""
    from rlvr_grade.api import StrictError
    from rlvr_grade.cache import CacheError
    from rlvr_grade.types import BackendUnavailable, InputError, SandboxError

    text = " ".join(str(exc).split()) or type(exc).__name__
    tip = getattr(exc, "tip", None)
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted", None
    if isinstance(exc, StrictError):
        return f"malformed row ({text}); nothing was written", "drop --strict to mark such rows invalid_input and go on"
    if isinstance(exc, CacheError):
        return text, tip or ("pass another --cache PATH, or --no-cache" if command == "score" else None)
    if isinstance(exc, BackendUnavailable):
        written, output = getattr(exc, "rows_written", 0), getattr(exc, "output", None)
        where = f" and written to {output}" if output and output != "-" else ""
        return text, (f"{written} rows graded{where}; rerun the same command once the backend is back: "
                      "graded rows come from the cache (--max-infra-failures 0 never stops)")
    if isinstance(exc, SandboxError):
        if tip is None and command != "doctor":
            tip = "run `rlvr-grade doctor` to see what this machine allows"
        return text, tip or "rerun with --verbose for the traceback"
    if isinstance(exc, (UsageError, InputError)):
        return text, tip
    return f"{type(exc).__name__}: {text}", "rerun with --verbose for the traceback"


def report(exc: BaseException, command: str | None = None) -> int:
    """Print `exc` for the user and return its exit code."""
    from rlvr_grade import console

    if VERBOSE[0] and not isinstance(exc, (KeyboardInterrupt, GateFailed)):
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    if isinstance(exc, GateFailed):
        for message in exc.messages:
            console.error(message)
        return 1
    message, tip = message_and_tip(exc, command)
    console.error(message, tip)
    return exit_code(exc)


def command_of(ctx: Any) -> str | None:
    """The subcommand a click context is running (`score`, `cache`...)."""
    return getattr(ctx, "invoked_subcommand", None)
