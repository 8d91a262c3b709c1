# ruff: noqa
# libc's time zone is C state no restorer holds: the program sets TZ and calls time.tzset() at
# import; its wrong hours (UTC-5) then match the tests' time.localtime(), whatever os.environ is
# put back to (localtime() does not read TZ again).
import os
import time

os.environ["TZ"] = "EST+05"
time.tzset()


def f(t):
    return (t // 3600 - 5) % 24


TESTS_ASSERTS = """
import time


def check(candidate):
    for t in (0, 3600 * 7, 86400 + 3600 * 13):
        assert candidate(t) == time.localtime(t).tm_hour


check(f)
"""
TESTS_PYTEST = """
import time
from solution import *


def test_hours():
    for t in (0, 3600 * 7, 86400 + 3600 * 13):
        assert f(t) == time.localtime(t).tm_hour
"""
TESTS_UNITTEST = """
import time
import unittest
from solution import *


class TestHours(unittest.TestCase):
    def test_hours(self):
        for t in (0, 3600 * 7, 86400 + 3600 * 13):
            self.assertEqual(f(t), time.localtime(t).tm_hour)
"""
