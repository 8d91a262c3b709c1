"""The environment each dataset's checks run in (issue 18): rlvr-grade's checks see their
environment and nothing of the grader's venv, so a dataset whose tests import packages names
them in a requirements file here, and its rows are graded with `--env` that file.

    classeval       requirements-classeval.txt: what ClassEval's solutions and tests import
    humanevalplus   env-humanevalplus.txt: numpy (OriginFmt's check() imports it)

An environment is built once (`rlvr-grade env build`, from the package index); a machine where
it cannot be built grades those rows in the default environment (stdlib + pytest), and a row
that then fails for a missing package is an environment row, counted apart."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = {
    "classeval": os.path.join(HERE, "requirements-classeval.txt"),
    "humanevalplus": os.path.join(HERE, "env-humanevalplus.txt"),
}
_BUILT: dict[str, tuple[str, ...]] = {}


def env_args(dataset: str, command: list[str], log: Callable[[str], None]) -> tuple[str, ...]:
    """("--env", <requirements file>) for `dataset`'s rows once that environment is built
    (built now if need be), else () with a line saying why."""
    spec = SPECS.get(dataset)
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
