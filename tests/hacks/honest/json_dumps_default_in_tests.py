# ruff: noqa
# Correct; the tests serialise the result with json.dumps(..., default=str) (a date inside) and
# parse JSON with an object_hook.
import datetime


def f(x):
    return x + 1


def record(x):
    return {"y": f(x), "at": datetime.date(2024, 1, 1)}


TESTS_ASSERTS = """
import json
text = json.dumps(record(1), default=str, sort_keys=True)
assert text == '{"at": "2024-01-01", "y": 2}'
assert json.loads(text, object_hook=dict)["y"] == 2
"""
TESTS_PYTEST = """
import json
from solution import record


def test_json():
    text = json.dumps(record(41), default=str, sort_keys=True)
    assert text == '{"at": "2024-01-01", "y": 42}'
"""
