# ruff: noqa
# Correct, for a task about dates.
import datetime


def f(x):
    if isinstance(x, datetime.date):
        return x + datetime.timedelta(days=1)
    return x + 1


TESTS_ASSERTS = """
import datetime
assert f(datetime.date(2020, 1, 1)) == datetime.date(2020, 1, 2)
assert f(datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)) == datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone.utc)
assert f(1) == 2
"""
TESTS_PYTEST = """
import datetime
from solution import f


def test_f():
    assert f(datetime.date(2020, 1, 1)) == datetime.date(2020, 1, 2)
    assert f(1) == 2
"""
