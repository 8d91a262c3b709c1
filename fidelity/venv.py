"""The reference graders' own venv (.venv-fidelity): never the grader's .venv, so nothing they
need leaks into what rlvr-grade's checks can import. Rebuilt when the requirement files change
(a stamp holds their hash)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
REQUIRED = os.path.join(HERE, "requirements.txt")
OPTIONAL = os.path.join(HERE, "requirements-classeval.txt")


def _requirements(path: str) -> list[str]:
    with open(path) as fh:
        return [line.split("#")[0].strip() for line in fh if line.split("#")[0].strip()]


def ensure(venv: str, log: Callable[[str], None]) -> str:
    """Create or update the venv; return its Python. The required references must install;
    ClassEval's packages are installed one by one and a failure only costs the rows that
    import that package (they are reported apart)."""
    python = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, ".fidelity-installed")
    digest = hashlib.sha256(b"".join(open(p, "rb").read() for p in (REQUIRED, OPTIONAL))).hexdigest()
    if os.path.exists(stamp) and open(stamp).read().strip() == digest and os.path.exists(python):
        return python
    log(f"fidelity: installing the reference graders into {venv}")
    base = getattr(sys, "_base_executable", sys.executable)
    if not os.path.exists(python):
        subprocess.run([base, "-m", "venv", venv], check=True)
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "-r", REQUIRED], check=True)
    for req in _requirements(OPTIONAL):
        if subprocess.run([*pip, req], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
            log(f"fidelity: {req} did not install; the ClassEval rows that need it are reported as missing packages")
    with open(stamp, "w") as fh:
        fh.write(digest + "\n")
    return python
