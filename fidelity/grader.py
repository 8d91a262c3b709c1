"""rlvr-grade's side: the cases go through the project's own CLI (`rlvr-grade score`), exactly as
a user runs it, real sandbox included. Options the adapters do not set (`--backend`, later
`--env`) are passed through with `--grader-arg`."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from typing import Callable

from fidelity.core import Case, Verdict


def grader_command() -> list[str]:
    """The `rlvr-grade` beside the interpreter running this (the checkout's .venv)."""
    exe = os.path.join(os.path.dirname(sys.executable), "rlvr-grade")
    if os.path.exists(exe):
        return [exe]
    return [sys.executable, "-m", "rlvr_grade.entry"]


def grade(cases: list[Case], work: str, name: str, command: list[str], extra: list[str], jobs: int,
          cache: str | None, log: Callable[[str], None]) -> dict[str, Verdict]:
    """Grade every case; cases sharing their CLI options go in one `score` run. Returns the
    verdict per case uid. A row missing from the output, or a run that exits with an error,
    stops the whole comparison: nothing is compared against a guess."""
    by_args: dict[tuple[str, ...], list[Case]] = defaultdict(list)
    for c in cases:
        by_args[c.grader_args].append(c)
    out: dict[str, Verdict] = {}
    os.makedirs(work, exist_ok=True)
    for n, (args, batch) in enumerate(sorted(by_args.items())):
        src = os.path.join(work, f"{name}.{n}.in.jsonl")
        dst = os.path.join(work, f"{name}.{n}.scored.jsonl")
        with open(src, "w") as fh:
            for c in batch:
                fh.write(json.dumps({**c.grader_row, "key": c.uid}) + "\n")
        cmd = [*command, "score", src, "-o", dst, "--id-col", "key", "-j", str(jobs), "-q", *args, *extra]
        cmd += ["--cache", cache] if cache else ["--no-cache"]
        t0 = time.time()
        res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"rlvr-grade exited {res.returncode} on {src}: {res.stderr.strip()[-2000:]}")
        got = {}
        with open(dst) as fh:
            for line in fh:
                r = json.loads(line)
                got[r["key"]] = Verdict(r["status"] == "pass" and r["reward"] == 1.0, r["status"], r.get("error") or "")
        missing = [c.uid for c in batch if c.uid not in got]
        if missing:
            raise RuntimeError(f"rlvr-grade wrote no row for {len(missing)} keys of {src}, e.g. {missing[:3]}")
        log(f"  rlvr-grade {' '.join(args)}: {len(batch)} rows in {time.time() - t0:.0f} s")
        out.update(got)
    return out


def missing_modules(*sources: object, python: str | None = None) -> str | None:
    """The first top-level module the sources import that the checks' environment cannot
    find: `python` is its interpreter (fidelity/environment.interpreter), asked in one
    subprocess; None asks this interpreter. Used only to class a failure whose error text does
    not name the module (a test module that fails to import is reported per test as "not
    reported")."""
    names = _imported(sources)
    if python is not None:
        code = ("import importlib.util, sys\nfor n in sys.argv[1:]:\n    try:\n        ok = importlib.util.find_spec(n) is not None\n"
                "    except (ImportError, ValueError):\n        ok = False\n    if not ok:\n        print(n)\n        break\n")
        try:
            res = subprocess.run([python, "-s", "-c", code, *names], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
        return res.stdout.strip() or None
    for top in names:
        try:
            if importlib.util.find_spec(top) is None:
                return top
        except (ImportError, ValueError):
            return top
    return None


def _imported(sources: tuple) -> list[str]:
    """The top-level modules the sources import, in order (not `solution`, not built-ins)."""
    out: list[str] = []
    for src in sources:
        if not isinstance(src, str):
            continue
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in ("solution",) and top not in sys.builtin_module_names and top not in out:
                    out.append(top)
    return out
