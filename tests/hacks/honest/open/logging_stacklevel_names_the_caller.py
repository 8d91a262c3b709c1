# ruff: noqa
# Correct: logs on behalf of its caller with stacklevel=2, as library code does, and the tests
# check that the record names their own function. The program-call fence's frame sits between
# the tests and the program, so the record names rlvr_harness/strict.py's frame (open, s15i;
# the same cause as warning_stacklevel_names_the_tests_line).
import logging

log = logging.getLogger("prog")


def f(x):
    if x < 0:
        log.warning("negative input %s", x, stacklevel=2)
    return x + 1


TESTS_ASSERTS = """
import logging


def check(candidate):
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logging.getLogger("prog").addHandler(Keep())
    assert candidate(-1) == 0
    assert records[0].funcName == "check"


check(f)
"""

TESTS_PYTEST = """
import logging
from solution import *


def test_the_record_names_the_caller(caplog):
    with caplog.at_level(logging.WARNING, logger="prog"):
        assert f(-1) == 0
    assert caplog.records[0].funcName == "test_the_record_names_the_caller"
"""

TESTS_UNITTEST = """
import unittest
from solution import *


class TestF(unittest.TestCase):
    def test_the_record_names_the_caller(self):
        with self.assertLogs("prog", level="WARNING") as cm:
            self.assertEqual(f(-1), 0)
        self.assertEqual(cm.records[0].funcName, "test_the_record_names_the_caller")
"""
