"""Rollout -> Check: column mapping, presets, code extraction, and the test styles, one module
each (checks/<style>.py: asserts, pytest, stdio, call; their registry is checks/styles.py).
Where a row's style is decided: checks/build.py."""

from rlvr_grade.checks.build import build_check, detect_style
from rlvr_grade.checks.extract import extract_code
from rlvr_grade.checks.options import CheckOptions
from rlvr_grade.checks.rows import InvalidRow

__all__ = ["CheckOptions", "InvalidRow", "build_check", "detect_style", "extract_code"]
