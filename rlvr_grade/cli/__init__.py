"""The `rlvr-grade` command line: a thin layer over the library (rlvr_grade.api and friends).

    app.py       the Typer app, its --help text, and the one error handler every command runs under
    options.py   the options, declared once in groups shared by the commands, with their validation
    errors.py    exception type -> message, tip and exit code
    commands.py  the commands: parse (the groups do), call the library, render (console.py)
"""

from __future__ import annotations

from rlvr_grade.cli import commands  # noqa: F401 - registers the commands on the app
from rlvr_grade.cli.app import app, main

__all__ = ["app", "main"]
