"""A lock: the exact contents of an environment — every distribution with its version, the
interpreter's version and implementation, the platform its wheels were chosen for. Its hash is
the environment's id: two specs that resolve to the same lock share one environment, and a
changed version anywhere is another environment (and another cache key)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import sys
import sysconfig
from dataclasses import dataclass

from rlvr_grade.envs.names import canonical_name

LOCK_VERSION = 1  # bump when what a lock means changes: every id changes with it


@dataclass(frozen=True)
class Lock:
    """The exact contents of an environment (see the module docstring)."""

    distributions: tuple[tuple[str, str], ...]  # (canonical name, version), sorted by name
    python: str  # X.Y.Z
    implementation: str  # cpython
    platform: str  # e.g. linux-x86_64-glibc2.36

    @classmethod
    def of(cls, distributions, python: str, implementation: str, platform: str) -> "Lock":
        dists = {canonical_name(n): v for n, v in distributions}
        return cls(tuple(sorted(dists.items())), python, implementation, platform)

    def hash(self) -> str:
        """The environment id: sha256 of the canonical JSON of the lock."""
        data = {
            "lock": LOCK_VERSION,
            "distributions": [list(d) for d in self.distributions],
            "python": self.python,
            "implementation": self.implementation,
            "platform": self.platform,
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    def pins(self) -> list[str]:
        return [f"{n}=={v}" for n, v in self.distributions]

    def version_of(self, name: str) -> str | None:
        return dict(self.distributions).get(canonical_name(name))

    def to_dict(self) -> dict:
        return {
            "distributions": {n: v for n, v in self.distributions},
            "python": self.python,
            "implementation": self.implementation,
            "platform": self.platform,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Lock":
        return cls.of(data["distributions"].items(), data["python"], data["implementation"], data["platform"])


def _own_platform() -> str:
    libc = "".join(platform.libc_ver())
    return sysconfig.get_platform() + (f"-{libc}" if libc else "")


# -- the default environment: the grader's stdlib + its own pytest --------------------------

DEFAULT_ROOTS = ("pytest",)


def _installed(name: str):  # -> importlib.metadata.Distribution | None
    from importlib import metadata

    try:
        return metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return None


def default_closure() -> list:
    """The grader's installed distributions that make up the default environment: pytest and
    everything it requires on this interpreter (markers evaluated, no extras). Without pytest
    installed, none (and no `packaging` needed: pytest requires it)."""
    seen: dict[str, object] = {}
    todo = list(DEFAULT_ROOTS)
    while todo:
        name = canonical_name(todo.pop())
        if name in seen:
            continue
        dist = _installed(name)
        if dist is None:
            continue  # the grader runs without it (no pytest installed): the lock says so
        seen[name] = dist
        for text in dist.requires or ():
            from packaging.requirements import Requirement

            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return [seen[n] for n in sorted(seen)]


@functools.lru_cache(maxsize=1)
def default_lock() -> Lock:
    """The default environment's lock: the grader's interpreter and its installed pytest
    closure. Its hash is in every cache key (runtime_fingerprint): upgrading pytest or one of
    its dependencies, or the interpreter, grades again.

    Reading the closure from package metadata costs ~50 ms (importlib.metadata, packaging),
    on every run, including reruns served from the cache; so the result is remembered in a
    small file under the environments folder, valid while no folder on sys.path changed (an
    install or uninstall renames a .dist-info folder: its parent's mtime moves)."""
    stamp = _path_stamp()
    memo = os.path.join(_memo_dir() or "/nonexistent", ".default-lock.json")
    try:
        with open(memo, encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("stamp") == stamp:
            return Lock.from_dict(data["lock"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    dists = [(d.metadata["Name"], d.version) for d in default_closure()]
    lock = Lock.of(dists, platform.python_version(), sys.implementation.name, _own_platform())
    try:
        os.makedirs(os.path.dirname(memo), exist_ok=True)
        tmp = f"{memo}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"stamp": stamp, "lock": lock.to_dict()}, fh)
        os.replace(tmp, memo)
    except OSError:
        pass  # a read-only cache folder: computed again next run, nothing else
    return lock


def _memo_dir() -> str | None:
    from rlvr_grade.envs.errors import EnvError
    from rlvr_grade.envs.paths import envs_root

    try:
        return envs_root()
    except EnvError:  # no folder for environments: nothing remembered, computed every run
        return None


def _path_stamp() -> list:
    stamp: list = [sys.executable, platform.python_version(), LOCK_VERSION]
    for entry in sys.path:
        try:
            st = os.stat(entry or ".")
        except OSError:
            continue
        stamp.append([entry, st.st_ino, st.st_mtime_ns])
    return stamp


def default_env_id() -> str:
    return default_lock().hash()


def installed_lock(site_packages: str, python: str, implementation: str, plat: str) -> Lock:
    """The lock of what is actually installed in `site_packages` (checked against the lock an
    environment was built from)."""
    from importlib import metadata

    dists = [(d.metadata["Name"], d.version) for d in metadata.distributions(path=[site_packages])]
    return Lock.of(dists, python, implementation, plat)
