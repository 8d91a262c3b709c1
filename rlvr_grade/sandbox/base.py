"""The backend contract: every sandbox (local, gvisor, beam) is one small class.

A failure of the *candidate* is an Execution; a failure of the *sandbox* is SandboxError, so a
dead backend never looks like model output."""

from __future__ import annotations

import os
from typing import Any

from rlvr_grade.boundary import execution_from_wire  # noqa: F401 - the backends' import path
from rlvr_grade.types import Check, Execution

# Slots beyond the core count: each slot spends part of every check off the CPU (waiting for the
# grader's next request, for its check child to start and be reaped), and with one slot per
# core those waits leave a core idle. Measured on 2 cores, HumanEval x3 through the CLI: 4
# slots 123 checks/s median against 110 with 2 (5 alternating runs each), at the same CPU per
# check. Two extra keep the overcommit small on large machines.
EXTRA_SLOTS = 2


def default_slots() -> int:
    """Checks run at once when the user does not say (the run's concurrency, a backend's
    slots): one per core, plus EXTRA_SLOTS."""
    return (os.cpu_count() or 1) + EXTRA_SLOTS


class Backend:
    """Runs checks in isolation. Subclasses implement start/run/close."""

    name: str = "base"
    # Whether run() honours Check.env (runs the check in that environment). A backend that
    # does not is never handed a check with one: it would run in the wrong world.
    environments: bool = False
    # Whether start() must run on one of the pool's long-lived threads: workers that die with
    # the thread that spawned them (the local backend's: PR_SET_PDEATHSIG is per thread).
    start_on_pool: bool = False

    def start(self) -> None:
        """Bring the backend up (spawn workers, connect); raise SandboxError if it cannot."""

    def use_environment(self, env_id: str) -> None:
        """The environment most checks will run in ("" the default one), told before start():
        a backend that prepares per environment prepares this one first."""

    def environment_options(self, preload: Any = None, progress: Any = None) -> None:
        """How environments are run: `preload` (ScoreOptions.preload: None, "none", "MOD,..."
        or a tuple) for a backend whose seeds import modules before forking checks, and
        `progress` (a callable taking a line) for building one on first use."""

    def add_environment(self, env: Any) -> None:
        """An environment (envs.Environment) checks may name by its id: the grader resolved
        it, so the backend need not look it up again (nor in another environments folder)."""

    def run(self, check: Check) -> Execution:
        """Run one check to completion and report what happened. Blocking and thread-safe:
        the pool calls it from up to `concurrency` threads. Raises SandboxError when the
        infrastructure (not the candidate) failed."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop every worker and leave nothing behind (processes, mounts, cgroups)."""

    def fingerprint(self) -> dict[str, Any]:
        """What about this backend can change a reward (part of the cache key)."""
        return {"backend": self.name}

    def toolchain(self, language: str) -> dict[str, Any] | None:
        """What identifies `language`'s compiler or runtime in this backend's sandboxes (tool
        versions), part of the cache key of that language's rows only; None when fingerprint()
        already pins it (an image) or there is nothing beyond it (Python)."""
        return None

    def isolation(self) -> dict[str, Any]:
        """The protections this run actually has, for the summary and `doctor`."""
        return {}

    def __enter__(self) -> "Backend":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
