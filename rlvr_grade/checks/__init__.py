"""Rollout -> Check: column mapping, presets, code extraction, test-style detection."""

from rlvr_grade.checks.build import CheckOptions, InvalidRow, build_check, detect_style
from rlvr_grade.checks.extract import extract_code

__all__ = ["CheckOptions", "InvalidRow", "build_check", "detect_style", "extract_code"]
