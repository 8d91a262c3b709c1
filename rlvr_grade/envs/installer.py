"""The one place that runs the resolver/installer: uv (PyPI's `uv` package, a static binary).

Measured here building an environment with pandas (6 distributions, see docs/environments.md):
uv resolves in 0.3-0.4 s and installs with bytecode compiled in ~10 s (~1.2 s without
bytecode), pip takes ~1.8 s to resolve and 14-16 s to install; both give the same versions.
uv also creates the venv, finds only interpreters already on the machine
(`--python-preference only-system`, never a download) and reads no project configuration
from the working directory (`--no-config`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rlvr_grade.envs.errors import EnvError, SpecError

Progress = Callable[[str], None]

# What an interpreter says about itself: everything a lock needs to say which platform's
# wheels it was resolved for.
_DESCRIBE = r"""
import json, platform, sys, sysconfig
print(json.dumps({
    "version": platform.python_version(),
    "implementation": sys.implementation.name,
    "platform": sysconfig.get_platform(),
    "libc": "".join(platform.libc_ver()),
    "executable": sys.executable,
    "base_executable": getattr(sys, "_base_executable", sys.executable),
}))
"""


@dataclass(frozen=True)
class Interpreter:
    """A Python on this machine: its path and what wheels it takes."""

    executable: str
    version: str  # X.Y.Z
    implementation: str  # cpython
    platform: str  # linux-x86_64-glibc2.36

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])


def uv_bin() -> str:
    """The uv executable shipped by the `uv` package (a dependency of rlvr-grade)."""
    try:
        from uv import find_uv_bin
    except ImportError:
        found = shutil.which("uv")
        if found:
            return found
        raise EnvError("building environments needs uv, which is not installed", tip="pip install uv")
    return find_uv_bin()


def version() -> str:
    """`uv X.Y.Z`, recorded with every environment it builds."""
    try:
        return subprocess.run([uv_bin(), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    except EnvError:
        return "python -m venv"  # no uv: create_venv's fallback (the default environment only)
    except (OSError, subprocess.CalledProcessError):
        return "uv"


def _uv_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(UV_PYTHON_DOWNLOADS="never", NO_COLOR="1", UV_NO_PROGRESS="1")
    env.pop("VIRTUAL_ENV", None)  # the grader's own venv is not the target
    return env


def run_uv(args: Sequence[str], stdin: str | None = None, what: str = "uv") -> subprocess.CompletedProcess:
    cmd = [uv_bin(), *args[:2], "--no-config", "--python-preference", "only-system", *args[2:]]
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=_uv_env(), check=False)
    except OSError as exc:
        raise EnvError(f"{what}: cannot run uv: {exc}") from exc


def describe(executable: str) -> Interpreter:
    try:
        proc = subprocess.run([executable, "-I", "-S", "-c", _DESCRIBE], capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise EnvError(f"the interpreter {executable} does not run: {(proc.stderr.strip() or f'exit {proc.returncode}')[-300:]}")
        data = json.loads(proc.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise EnvError(f"cannot run the interpreter {executable}: {exc}") from exc
    libc = data["libc"]
    return Interpreter(
        executable=os.path.realpath(data["base_executable"] or executable),
        version=data["version"],
        implementation=data["implementation"],
        platform=data["platform"] + (f"-{libc}" if libc else ""),
    )


def find_interpreter(python: str | None) -> Interpreter:
    """The interpreter for `python` ("X.Y"; None: the grader's own): the grader's own base
    interpreter when its version matches, else `pythonX.Y` on PATH. Never downloads one."""
    import sys

    own = describe(sys.executable)
    if python is None or own.minor == python:
        return own
    found = shutil.which(f"python{python}")
    missing = EnvError(f"no Python {python} on this machine (the grader runs {own.minor})", tip=f"install python{python} or leave out --python")
    if found is None:
        raise missing
    try:
        interp = describe(found)
    except EnvError as exc:  # e.g. a version manager's shim for a version it does not have
        raise EnvError(f"{missing} ({exc})", tip=missing.tip) from exc
    if interp.minor != python:
        raise EnvError(f"python{python} on PATH is Python {interp.version}")
    return interp


_PIN_RE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def compile_pins(requirements: Sequence[str], index: Sequence[str], interp: Interpreter) -> list[tuple[str, str]]:
    """Resolve `requirements` for `interp`: every distribution of the closure with its exact
    version. Raises SpecError naming the requirement(s) uv could not satisfy."""
    proc = run_uv(
        ["pip", "compile", "-", "--python", interp.executable, "--no-header", "--no-annotate", "--quiet", *index],
        stdin="\n".join(requirements) + "\n",
        what="resolving",
    )
    if proc.returncode != 0:
        raise _resolution_error(proc.stderr, requirements)
    pins = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")):
            continue
        m = _PIN_RE.match(line)
        if m is None:
            raise SpecError(f"the resolver gave a requirement that is not an exact version: {line}", requirement=line)
        pins.append((m.group(1), m.group(2)))
    return pins


def _resolution_error(stderr: str, requirements: Sequence[str]) -> SpecError:
    from rlvr_grade.envs.spec import canonical_name

    text = re.sub(r"\x1b\[[0-9;]*m", "", stderr).strip()
    lowered = canonical_name(text.lower())
    named = [r for r in requirements if re.search(rf"\b{re.escape(canonical_name(_name_of(r)))}\b", lowered)]
    detail = " ".join(line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("hint:"))
    culprit = named[0] if named else None
    head = f"cannot resolve {', '.join(named)}" if named else "the requirements do not resolve"
    return SpecError(f"{head}: {detail[-600:]}", requirement=culprit)


def _name_of(requirement: str) -> str:
    return re.split(r"[\[<>=!~;\s]", requirement, maxsplit=1)[0]


def create_venv(path: str, interp: Interpreter) -> None:
    """An empty venv (no pip) at `path` for `interp`, relocatable: it is built in a temporary
    folder and renamed into place. Without uv (a grader run by a bare system Python: only the
    default environment, which installs nothing, is built then), the standard library's venv."""
    try:
        proc = run_uv(["venv", path, "--python", interp.executable, "--relocatable", "--no-project", "--quiet"], what="creating a venv")
    except EnvError:
        if shutil.which("uv") is not None:
            raise
        proc = subprocess.run([interp.executable, "-m", "venv", "--without-pip", path], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise EnvError(f"cannot create a venv with {interp.executable}: {proc.stderr.strip()[-600:]}")


def install_exact(venv: str, pins: Sequence[tuple[str, str]], index: Sequence[str]) -> None:
    """Install exactly `pins` (no resolution, nothing else) into `venv`, copied, not
    hard-linked, from uv's cache (an environment does not change when that cache is cleaned).
    Its bytecode is compiled after, under the names a check sees (store._name_bytecode: a
    read-only root cannot write it later)."""
    python = os.path.join(venv, "bin", "python")
    proc = run_uv(
        ["pip", "sync", "-", "--python", python, "--link-mode", "copy", "--strict", "--quiet", *index],
        stdin="".join(f"{n}=={v}\n" for n, v in pins),
        what="installing",
    )
    if proc.returncode != 0:
        raise EnvError(f"installing the environment failed: {proc.stderr.strip()[-800:]}")
