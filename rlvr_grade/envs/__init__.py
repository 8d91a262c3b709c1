"""Environments: what a check's code can import, built once from a spec and content-addressed.

    spec.py       EnvSpec: requirement lines, Python version, package sources (parsed, checked)
    installer.py  the resolver/installer (uv) and the interpreters on this machine
    lock.py       Lock: exact versions + interpreter + platform; its hash is the environment id;
                  the default environment's lock (the grader's own pytest closure)
    names.py      project-name normalisation; the import names a distribution provides
    paths.py      where environments live ($RLVR_GRADE_ENVS)
    store.py      Environment: build (atomic, locked), lookup, resolve a reference, list, remove

Names are imported on first use: the cache key needs only `default_env_id` (lock.py), and
every grading run computes it. See docs/environments.md."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "EnvError": "errors",
    "EnvNotFound": "errors",
    "SpecError": "errors",
    "EnvSpec": "spec",
    "Lock": "lock",
    "default_env_id": "lock",
    "default_lock": "lock",
    "Environment": "store",
    "build": "store",
    "default_environment": "store",
    "ensure": "store",
    "envs_root": "paths",
    "list_envs": "store",
    "load": "store",
    "locked": "store",
    "lookup": "store",
    "named_bytecode": "store",
    "read_note": "store",
    "remove": "store",
    "resolve": "store",
    "stdlib_snapshot": "store",
    "write_note": "store",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'rlvr_grade.envs' has no attribute {name!r}")
    return getattr(importlib.import_module(f"rlvr_grade.envs.{module}"), name)
