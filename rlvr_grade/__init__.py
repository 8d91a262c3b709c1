"""rlvr-grade: a batch grader for RL with verifiable rewards."""

__version__ = "0.1.0"
