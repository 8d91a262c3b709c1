# ruff: noqa
# Correct; works with time-zone aware datetimes (zoneinfo, the standard library's tz support),
# as the tests expect.
import datetime
from zoneinfo import ZoneInfo


def f(x):
    return x + 1


def shift(dt):
    return dt + datetime.timedelta(hours=1)


TESTS_ASSERTS = """
import datetime
from zoneinfo import ZoneInfo
tz = ZoneInfo("Europe/Paris")
assert f(1) == 2
assert shift(datetime.datetime(2024, 1, 1, 10, tzinfo=tz)) == datetime.datetime(2024, 1, 1, 11, tzinfo=tz)
"""
TESTS_PYTEST = """
import datetime
from zoneinfo import ZoneInfo
from solution import f, shift


def test_shift():
    tz = ZoneInfo("Europe/Paris")
    assert f(1) == 2
    assert shift(datetime.datetime(2024, 1, 1, 10, tzinfo=tz)) == datetime.datetime(2024, 1, 1, 11, tzinfo=tz)
"""
