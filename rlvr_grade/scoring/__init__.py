"""Pure: (Check, Execution) -> Outcome and reward. No I/O, no clocks; the same inputs give the
same verdict. Comparison happens here, outside the sandbox: the expected outputs never enter it.

    base.py       Verdict (what a style's verdict returns), the output-cap rule
    records.py    verdicts from per-test records (asserts, pytest)
    cases.py      verdicts from per-case outputs (stdio, call): AC/WA/TLE/MLE/RE/OLE
    compare.py    comparing a stdio output or a call's return value with the expected one
    validator.py  Kattis/ICPC output validators (a second check in the same backend)
    rewards.py    RewardConfig, status -> reward, the flags policy, invalid/infra outcomes
    outcome.py    outcome_of(): a verdict, its reward and flags -> the Outcome a row is written with

Which verdict a row gets is its style's (rlvr_grade/checks/styles.py `verdict`, `score`: the
shared rules of base.py, then checks/<style>.py), above scoring: nothing here imports a style.
Names load on first use (PEP 562)."""

_EXPORTS = {
    "Verdict": "rlvr_grade.scoring.base",
    "output_limit_error": "rlvr_grade.scoring.base",
    "shared_verdict": "rlvr_grade.scoring.base",
    "RewardConfig": "rlvr_grade.scoring.rewards",
    "OnSuspicious": "rlvr_grade.scoring.rewards",
    "reward": "rlvr_grade.scoring.rewards",
    "apply_flags": "rlvr_grade.scoring.rewards",
    "invalid": "rlvr_grade.scoring.rewards",
    "infrastructure_failure": "rlvr_grade.scoring.rewards",
    "grader_failure": "rlvr_grade.scoring.rewards",
    "outcome_of": "rlvr_grade.scoring.outcome",
}

__all__ = [  # the keys of _EXPORTS
    "OnSuspicious",
    "RewardConfig",
    "Verdict",
    "apply_flags",
    "grader_failure",
    "infrastructure_failure",
    "invalid",
    "outcome_of",
    "output_limit_error",
    "reward",
    "shared_verdict",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rlvr_grade.scoring.base import Verdict, output_limit_error, shared_verdict
    from rlvr_grade.scoring.outcome import outcome_of
    from rlvr_grade.scoring.rewards import (
        OnSuspicious,
        RewardConfig,
        apply_flags,
        grader_failure,
        infrastructure_failure,
        invalid,
        reward,
    )


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        moved = " (a row's verdict is its style's: rlvr_grade.checks.styles)" if name in ("score", "verdict") else ""
        raise AttributeError(f"module 'rlvr_grade.scoring' has no attribute {name!r}{moved}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
