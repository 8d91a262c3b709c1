"""The `rlvr-grade` command's entry point. Before importing the command-line code (typer, the
grader: ~0.15 s), a run that will grade in the local sandbox starts its lean seed
interpreter, which then warms up on another core meanwhile (sandbox/local.start_seed_early)."""

from __future__ import annotations

import sys


def grades_locally(args: list[str]) -> bool:
    """Whether these arguments run checks in the local sandbox: `score` or `filter` (after the
    app's own options, e.g. `-v`), with the default backend or --backend local, and not only
    asking for help."""
    while args and args[0] in ("-v", "--verbose"):
        args = args[1:]
    if not args or args[0] not in ("score", "filter") or "--help" in args or "-h" in args:
        return False
    backend = "local"
    for i, arg in enumerate(args):
        if arg == "--backend" and i + 1 < len(args):
            backend = args[i + 1]
        elif arg.startswith("--backend="):
            backend = arg.split("=", 1)[1]
    return backend == "local"


def main() -> None:
    # The early seed is the default environment's: a run in another (--env) starts its own.
    if grades_locally(sys.argv[1:]) and not any(a == "--env" or a.startswith("--env=") for a in sys.argv[1:]):
        from rlvr_grade.sandbox.local import start_seed_early

        start_seed_early()
    from rlvr_grade.cli import main as cli_main

    cli_main()
