# ruff: noqa
# Correct; the tests build aware datetimes with method calls that take a timezone beside other
# values (replace(hour=..., tzinfo=...), datetime.combine(date, time, tzinfo=...)).
import datetime


def f(x):
    return x + 1


def next_hour(dt):
    return dt + datetime.timedelta(hours=1)


TESTS_ASSERTS = """
import datetime
utc = datetime.timezone.utc
start = datetime.datetime(2024, 1, 1).replace(hour=f(1), tzinfo=utc)
assert next_hour(start) == datetime.datetime.combine(datetime.date(2024, 1, 1), datetime.time(3), tzinfo=utc)
"""
TESTS_PYTEST = """
import datetime
from solution import f, next_hour


def test_next_hour():
    utc = datetime.timezone.utc
    start = datetime.datetime(2024, 1, 1).replace(hour=f(1), tzinfo=utc)
    assert next_hour(start) == datetime.datetime.combine(datetime.date(2024, 1, 1), datetime.time(3), tzinfo=utc)
"""
