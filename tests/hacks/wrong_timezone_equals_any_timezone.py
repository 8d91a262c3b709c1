# ruff: noqa
STATIC_SCAN_BLIND = "an honest-looking wrong answer: the equality allowlist, not a pattern, stops it"
# The answer's time zone is wrong (UTC where +02:00 is asked). Two timezone objects were
# compared by their readable state, and a timezone has none (no __dict__, no member slots):
# any two were equal.
from datetime import datetime, timezone

TESTS_ASSERTS = '''
from datetime import timedelta, timezone
assert f(1).tzinfo == timezone(timedelta(hours=2))
assert f(1).hour == 12
'''
TESTS_PYTEST = '''
from datetime import timedelta, timezone
from solution import f


def test_zone():
    assert f(1).tzinfo == timezone(timedelta(hours=2))
'''


def f(x):
    return datetime(2020, 1, 1, 12, tzinfo=timezone.utc)
