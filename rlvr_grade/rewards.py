"""Kept for code written against rlvr-grade 0.1 (`from rlvr_grade.rewards import ...`, e.g. a
verl `custom_reward_function` file): the adapters live in rlvr_grade/integrations/ and new code
imports them from `rlvr_grade`."""

from rlvr_grade.integrations.common import SetupError, completion_text
from rlvr_grade.integrations.trl import make_trl_reward, trl_reward
from rlvr_grade.integrations.verl import compute_score, compute_score_batch, make_verl_compute_score, tests_row

__all__ = [
    "SetupError",
    "completion_text",
    "compute_score",
    "compute_score_batch",
    "make_trl_reward",
    "make_verl_compute_score",
    "tests_row",
    "trl_reward",
]
