"""rlvr-grade: a batch grader for RL with verifiable rewards.

    from rlvr_grade import Grader, grade, make_trl_reward, compute_score

    outcomes = grade(rows, preset="humaneval", timeout=5)     # rows: dicts or a pyarrow Table
    reward = make_trl_reward(preset="humaneval")               # GRPOTrainer(reward_funcs=reward)

Names are imported on first use (PEP 562), so `import rlvr_grade` costs nothing: the CLI's
typer and rich, pyarrow, and the sandbox are loaded only by what needs them. Every check's
sandboxed worker imports this package too, which is one more reason it must import nothing.
"""

# name -> the module that defines it.
_EXPORTS = {
    # grading rows in memory, and files
    "Grader": "rlvr_grade.api",
    "grade": "rlvr_grade.api",
    "agrade": "rlvr_grade.api",
    "shared_grader": "rlvr_grade.api",
    "close_shared": "rlvr_grade.api",
    "ScoreOptions": "rlvr_grade.api",
    "make_options": "rlvr_grade.api",
    "option_names": "rlvr_grade.api",
    "score_file": "rlvr_grade.api",
    "Outcome": "rlvr_grade.types",
    "STATUSES": "rlvr_grade.types",
    # trainers
    "make_trl_reward": "rlvr_grade.integrations.trl",
    "trl_reward": "rlvr_grade.integrations.trl",
    "make_verl_compute_score": "rlvr_grade.integrations.verl",
    "compute_score": "rlvr_grade.integrations.verl",
    "compute_score_batch": "rlvr_grade.integrations.verl",
    "completion_text": "rlvr_grade.integrations.common",
    # errors
    "SetupError": "rlvr_grade.integrations.common",
    "SandboxError": "rlvr_grade.types",
    "InputError": "rlvr_grade.types",
    "StrictError": "rlvr_grade.api",
    "CacheError": "rlvr_grade.cache",
}

__all__ = [  # what `from rlvr_grade import *` gives: the keys of _EXPORTS (a test checks)
    "CacheError",
    "Grader",
    "InputError",
    "Outcome",
    "STATUSES",
    "SandboxError",
    "ScoreOptions",
    "SetupError",
    "StrictError",
    "agrade",
    "close_shared",
    "completion_text",
    "compute_score",
    "compute_score_batch",
    "grade",
    "make_options",
    "make_trl_reward",
    "make_verl_compute_score",
    "option_names",
    "score_file",
    "shared_grader",
    "trl_reward",
]

# Type checkers read a global TYPE_CHECKING = False as True; importing typing for it would cost
# every sandboxed worker a module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rlvr_grade.api import (
        Grader,
        ScoreOptions,
        StrictError,
        agrade,
        close_shared,
        grade,
        make_options,
        option_names,
        score_file,
        shared_grader,
    )
    from rlvr_grade.cache import CacheError
    from rlvr_grade.integrations.common import SetupError, completion_text
    from rlvr_grade.integrations.trl import make_trl_reward, trl_reward
    from rlvr_grade.integrations.verl import compute_score, compute_score_batch, make_verl_compute_score
    from rlvr_grade.types import STATUSES, InputError, Outcome, SandboxError


def __getattr__(name: str):
    if name == "__version__":  # rlvr_grade/version.py: read there by the modules of the package
        module = "rlvr_grade.version"
    else:
        module = _EXPORTS.get(name)
    if module is None:
        # Also how `from rlvr_grade import console` finds out it must import a submodule.
        raise AttributeError(f"module 'rlvr_grade' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
