"""The baselines' external tools (bubblewrap, gVisor's runsc): install them if missing and
possible (root + apt-get), check that they actually run here, else say why they are skipped."""

from __future__ import annotations

import os
import shutil
import subprocess

APT = {"bwrap": "bubblewrap", "runsc": "runsc"}


def _apt_install(package: str) -> str | None:
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "not root or no apt-get"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "install", "-y", "-q", package], ["apt-get", "update", "-q"],
                ["apt-get", "install", "-y", "-q", package]):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        if cmd[1] == "install" and r.returncode == 0:
            return None
    return (r.stderr or r.stdout).strip().splitlines()[-1:][0] if (r.stderr or r.stdout).strip() else "apt-get failed"


def _smoke(tool: str) -> str | None:
    """Run a trivial command through the tool; None if it works, else the reason."""
    if tool == "bwrap":
        cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev",
               "--proc", "/proc", "--tmpfs", "/tmp", "true"]
    else:
        cmd = ["runsc", "--network=none", "do", "--", "true"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{tool} did not run: {exc}"
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"{tool} failed here (exit {r.returncode}): {tail[0][:200]}"
    return None


def ensure(tool: str, log=print) -> str | None:
    """Make `tool` available; return None when it is usable, else why the baseline is skipped."""
    if not shutil.which(tool):
        log(f"  {tool} missing: installing {APT[tool]} with apt-get ...")
        why = _apt_install(APT[tool])
        if why or not shutil.which(tool):
            return f"{tool} not installed and could not be installed ({why or 'not found after install'}); try: apt-get install {APT[tool]}"
    return _smoke(tool)
