"""What a user asks for: requirement lines (a requirements file and/or `-p PKG`), a Python
version, and where packages may come from. A spec is parsed and validated here, before any
resolver runs, so a typo is named by its line; its `key` finds the environment it was built
into without resolving again (no network at grading time)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass

from rlvr_grade.envs.errors import SpecError
from rlvr_grade.envs.names import canonical_name

# Requirements-file options that say where packages come from: kept (they are part of what
# the user asked) and handed to the resolver and the installer.
_INDEX_OPTIONS = {
    "-i": "--index-url",
    "--index-url": "--index-url",
    "--extra-index-url": "--extra-index-url",
    "-f": "--find-links",
    "--find-links": "--find-links",
    "--no-index": "--no-index",
}
_PYTHON_RE = re.compile(r"^(?:python)?(\d+)\.(\d+)$")


def grader_pytest_version() -> str | None:
    """The grader's own pytest: what the default environment holds and what a spec that
    does not name pytest gets (the harness runs pytest-style rows with it)."""
    try:  # pytest's version module imports nothing (`import pytest` costs ~0.3 s)
        from _pytest._version import version
    except ImportError:
        return None
    return str(version)


@dataclass(frozen=True)
class EnvSpec:
    """An environment as asked for. `requirements` are normalised requirement strings (sorted
    and unique), `python` is "X.Y" (None: the grader's own interpreter), `index` the
    package-source options (`--index-url U`, `--find-links D`, `--no-index`, ...) as argv
    words, `source` the requirements file it was read from (shown, not hashed)."""

    requirements: tuple[str, ...] = ()
    python: str | None = None
    index: tuple[str, ...] = ()
    source: str | None = None

    @classmethod
    def parse(
        cls,
        path: str | None = None,
        packages: tuple[str, ...] | list[str] = (),
        python: str | None = None,
        index: tuple[str, ...] | list[str] = (),
    ) -> "EnvSpec":
        """A spec from a requirements file and/or package strings. Raises SpecError naming
        the line that does not parse or cannot be content-addressed (editable installs, URLs,
        local paths)."""
        lines: list[str] = []
        opts: list[str] = list(index)
        if path is not None:
            _read_file(os.path.abspath(path), lines, opts, seen=set())
        for p in packages:
            _add_line(p, f"-p {p!r}", lines, opts, base=os.getcwd())
        if not lines:
            raise SpecError("the environment names no package", tip="give a requirements file or -p PKG")
        version = None
        if python is not None:
            m = _PYTHON_RE.match(python.strip())
            if not m:
                raise SpecError(f"--python {python!r} is not a version like 3.11")
            version = f"{m.group(1)}.{m.group(2)}"
        return cls(
            requirements=tuple(sorted(set(lines))),
            python=version,
            index=tuple(opts),
            source=os.path.abspath(path) if path is not None else None,
        )

    def names(self) -> tuple[str, ...]:
        """The canonical project names the spec asks for (what the seed preloads, phase B)."""
        return tuple(sorted({canonical_name(_requirement(r).name) for r in self.requirements}))

    def effective_requirements(self) -> tuple[str, ...]:
        """What is resolved: the requirements, plus the grader's pytest pinned when the spec
        does not name pytest (pytest-style rows run pytest inside the environment)."""
        if "pytest" in self.names():
            return self.requirements
        version = grader_pytest_version()
        return self.requirements + ((f"pytest=={version}",) if version else ("pytest",))

    def key(self, python_version: str) -> str:
        """Which spec this is, for finding its built environment without resolving:
        `python_version` is the X.Y of the interpreter it is built with."""
        data = {"requirements": list(self.effective_requirements()), "python": python_version, "index": list(self.index)}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def describe(self) -> str:
        """One line for messages: the file, else the packages."""
        what = self.source or " ".join(self.requirements)
        return what + (f" (python {self.python})" if self.python else "")

    def to_dict(self) -> dict:
        return {"requirements": list(self.requirements), "python": self.python, "index": list(self.index), "source": self.source}

    @classmethod
    def from_dict(cls, data: dict) -> "EnvSpec":
        return cls(
            requirements=tuple(data.get("requirements", ())),
            python=data.get("python"),
            index=tuple(data.get("index", ())),
            source=data.get("source"),
        )


def _requirement(text: str):  # -> packaging.requirements.Requirement
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        return Requirement(text)
    except InvalidRequirement as exc:
        raise SpecError(f"requirement {text!r} does not parse: {exc}", requirement=text) from exc


def _logical_lines(text: str) -> list[str]:
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line:
            out.append(line)
    if pending.strip():
        out.append(pending.strip())
    return out


def _read_file(path: str, lines: list[str], opts: list[str], seen: set[str]) -> None:
    if path in seen:
        return  # -r cycles
    seen.add(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise SpecError(f"cannot read the requirements file {path}: {exc.strerror}") from exc
    for i, line in enumerate(_logical_lines(text), 1):
        _add_line(line, f"{path}:{i}", lines, opts, base=os.path.dirname(path), seen=seen)


def _add_line(line: str, where: str, lines: list[str], opts: list[str], base: str, seen: set[str] | None = None) -> None:
    if line.startswith("-"):
        words = shlex.split(line)
        flag, _, inline = words[0].partition("=")
        args = ([inline] if inline else []) + words[1:]
        if flag in ("-r", "--requirement") and args:
            _read_file(os.path.join(base, args[0]), lines, opts, seen if seen is not None else set())
            return
        if flag in _INDEX_OPTIONS:
            name = _INDEX_OPTIONS[flag]
            if name == "--no-index":
                opts.append(name)
            elif args:
                value = args[0]
                if name == "--find-links" and "://" not in value:
                    value = os.path.abspath(os.path.join(base, value))  # relative to its file
                opts += [name, value]
            else:
                raise SpecError(f"{where}: {flag} needs a value", requirement=line)
            return
        if flag in ("-e", "--editable"):
            raise SpecError(f"{where}: editable installs cannot be pinned by version: {line}", requirement=line)
        raise SpecError(f"{where}: unsupported option {flag}", requirement=line)
    req = _requirement(line)
    if req.url:
        raise SpecError(
            f"{where}: {line!r} is a direct URL or path; an environment is addressed by exact versions",
            requirement=line,
            tip="publish it to an index (or a --find-links folder of wheels) and name it by version",
        )
    extras = f"[{','.join(sorted(canonical_name(e) for e in req.extras))}]" if req.extras else ""
    marker = f"; {req.marker}" if req.marker else ""
    lines.append(f"{canonical_name(req.name)}{extras}{req.specifier}{marker}")
