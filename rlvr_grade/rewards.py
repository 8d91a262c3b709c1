"""Kept for code written against rlvr-grade 0.1 (`from rlvr_grade.rewards import ...`, e.g. a
verl `custom_reward_function` file): the adapters live in rlvr_grade/integrations/ and new code
imports them from `rlvr_grade`. The same names as the integrations' face, plus 0.1's `tests_row`."""

from rlvr_grade import integrations
from rlvr_grade.integrations import *  # noqa: F403
from rlvr_grade.integrations.verl import tests_row

__all__ = [*integrations.__all__, "tests_row"]
