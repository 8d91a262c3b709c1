"""`rlvr-grade env ...`: build, list, show and remove environments (rlvr_grade/envs).
Parse, call the library, render; progress and errors on stderr, data on stdout."""

from __future__ import annotations

import json
import time
from typing import Optional

import typer

env_app = typer.Typer(
    no_args_is_help=True,
    help="Environments: the packages a check can import, built once from a requirements file "
    "and named by the hash of their lock ($RLVR_GRADE_ENVS, else $XDG_CACHE_HOME/rlvr-grade/envs). "
    "`score --env SPEC|NAME|ID` grades in one; a row's `env` column picks one per row.",
)


def _fail(exc: Exception) -> None:
    from rlvr_grade import console

    console.error(str(exc), getattr(exc, "tip", None))
    raise typer.Exit(2)


def _say(message: str) -> None:
    from rlvr_grade import console

    console.err_line(message)


@env_app.command("build")
def env_build(
    spec: Optional[str] = typer.Argument(None, metavar="[REQUIREMENTS]", help="A requirements file (pip's format)."),
    package: list[str] = typer.Option([], "-p", "--package", metavar="PKG", help="A requirement (repeatable), e.g. -p 'pandas==2.2.*'."),
    python: Optional[str] = typer.Option(None, "--python", metavar="X.Y", help="Python version, if this machine has that interpreter (default: the grader's)."),
    name: Optional[str] = typer.Option(None, "--name", help="Also name the environment (for --env NAME and `env` columns)."),
    find_links: list[str] = typer.Option([], "--find-links", "-f", metavar="DIR|URL", help="Also look for packages here (repeatable)."),
    index_url: Optional[str] = typer.Option(None, "--index-url", "-i", metavar="URL", help="Package index instead of PyPI."),
    no_index: bool = typer.Option(False, "--no-index", help="Use only --find-links (offline builds)."),
    default: bool = typer.Option(False, "--default", help="Build the default environment (the grader's stdlib + its pytest) instead."),
) -> None:
    """Resolve and install an environment (nothing happens if its lock is already built). Prints its id."""
    from rlvr_grade import envs

    try:
        if default:
            env = envs.default_environment(build=True, progress=_say)
        else:
            index: list[str] = []
            for link in find_links:
                index += ["--find-links", link]
            if index_url:
                index += ["--index-url", index_url]
            if no_index:
                index.append("--no-index")
            parsed = envs.EnvSpec.parse(spec, packages=package, python=python, index=index)
            env = envs.build(parsed, progress=_say, name=name)
    except envs.EnvError as exc:
        _fail(exc)
    typer.echo(env.id)


@env_app.command("list")
def env_list(as_json: bool = typer.Option(False, "--json", help="Print them as JSON on stdout.")) -> None:
    """The built environments, oldest first."""
    from rlvr_grade import envs

    try:
        found = envs.list_envs()
    except envs.EnvError as exc:
        _fail(exc)
    if as_json:
        typer.echo(json.dumps([e.to_dict() for e in found], indent=2))
        return
    if not found:
        _say(f"no environments in {envs.envs_root()}")
        return
    rows = [("ID", "NAMES", "PYTHON", "DISTS", "SIZE", "BUILT", "SPEC")]
    for e in found:
        rows.append((
            e.short_id,
            ",".join(e.names) or ("(default)" if e.default else "-"),
            e.lock.python,
            str(len(e.lock.distributions)),
            f"{e.size_bytes / 1e6:.0f} MB",
            time.strftime("%Y-%m-%d %H:%M", time.localtime(e.created)),
            e.spec.describe() if e.spec else "stdlib + pytest",
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1])


@env_app.command("show")
def env_show(
    ref: str = typer.Argument(..., metavar="ID|NAME|REQUIREMENTS", help="Which environment (an id may be shortened)."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole record as JSON on stdout."),
) -> None:
    """One environment: its lock (every distribution's version), interpreter, import names."""
    from rlvr_grade import envs

    try:
        env = envs.resolve(ref, build=False)
    except envs.EnvError as exc:
        _fail(exc)
    if as_json:
        typer.echo(json.dumps(env.to_dict(), indent=2))
        return
    lines = [
        f"id           {env.id}",
        f"names        {', '.join(env.names) or '-'}",
        f"spec         {env.spec.describe() if env.spec else 'the default environment: stdlib + the grader’s pytest'}",
        f"python       {env.lock.python} ({env.lock.implementation}, {env.lock.platform})",
        f"interpreter  {env.interpreter} -> {env.base_interpreter}",
        f"packages     {env.site_packages}",
        f"files        {env.files} files, {env.size_bytes / 1e6:.1f} MB, sha256 {env.files_hash[:16]}",
        f"preload      {', '.join(env.preload) or '-'}",
        "distributions:",
    ]
    provides = dict(env.provides)
    for dist, version in env.lock.distributions:
        lines.append(f"  {dist}=={version}  ({', '.join(provides.get(dist, ())) or '-'})")
    typer.echo("\n".join(lines))


@env_app.command("rm")
def env_rm(refs: list[str] = typer.Argument(..., metavar="ID|NAME|REQUIREMENTS...", help="Which environments to remove.")) -> None:
    """Remove environments (and the names and specs pointing at them)."""
    from rlvr_grade import envs

    for ref in refs:
        try:
            env = envs.remove(ref)
        except envs.EnvError as exc:
            _fail(exc)
        _say(f"removed {env.short_id}")
