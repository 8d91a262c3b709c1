"""Trainers' adapters: reward functions in the shapes TRL and verl call, grading through one
warm sandbox pool per process. See docs/integrations.md."""

from rlvr_grade.integrations.common import SetupError, completion_text
from rlvr_grade.integrations.trl import make_trl_reward, trl_reward
from rlvr_grade.integrations.verl import compute_score, compute_score_batch, make_verl_compute_score

__all__ = [
    "SetupError",
    "completion_text",
    "compute_score",
    "compute_score_batch",
    "make_trl_reward",
    "make_verl_compute_score",
    "trl_reward",
]
