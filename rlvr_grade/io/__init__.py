"""Streaming readers and writers. Rows go in and out one at a time; memory stays flat."""

from rlvr_grade.io.readers import RowSource, open_rollouts
from rlvr_grade.io.writers import OUTCOME_COLUMNS, RowSink, open_output

__all__ = ["RowSource", "open_rollouts", "RowSink", "open_output", "OUTCOME_COLUMNS"]
