"""What can go wrong with an environment, as errors the CLI maps to exit 2 (they are
InputErrors: the run's configuration is unusable, nothing is graded or written)."""

from __future__ import annotations

from rlvr_grade.types import InputError


class EnvError(InputError):
    """An environment cannot be built, found or used."""


class SpecError(EnvError):
    """A spec that does not parse or does not resolve. `requirement` names the line at fault
    when it is known (an unknown package, an unsatisfiable pin, a typo)."""

    def __init__(self, message: str, requirement: str | None = None, tip: str | None = None):
        super().__init__(message, tip=tip)
        self.requirement = requirement


class EnvNotFound(EnvError):
    """A reference (id, name, requirements file) that names no built environment."""
