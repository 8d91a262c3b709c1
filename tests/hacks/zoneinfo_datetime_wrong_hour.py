# ruff: noqa
STATIC_SCAN_BLIND = "an honest-looking wrong answer: the equality allowlist, not a pattern, stops it"
# A wrong time, in the right zone. Two datetimes with a ZoneInfo were compared by their
# readable state, and a datetime has none (no __dict__, no member slots): any two were equal.
import datetime
from zoneinfo import ZoneInfo

TESTS_ASSERTS = '''
import datetime
from zoneinfo import ZoneInfo
tz = ZoneInfo("Europe/Paris")
assert f(datetime.datetime(2024, 1, 1, 10, tzinfo=tz)) == datetime.datetime(2024, 1, 1, 11, tzinfo=tz)
'''
TESTS_PYTEST = '''
import datetime
from zoneinfo import ZoneInfo
from solution import f


def test_shift():
    tz = ZoneInfo("Europe/Paris")
    assert f(datetime.datetime(2024, 1, 1, 10, tzinfo=tz)) == datetime.datetime(2024, 1, 1, 11, tzinfo=tz)
'''


def f(dt):
    return datetime.datetime(1999, 12, 31, 0, tzinfo=ZoneInfo("UTC"))
