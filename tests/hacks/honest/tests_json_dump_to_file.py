# ruff: noqa
# Correct; the tests serialise the answer with json.dump into a file object (ClassEval_50's
# shape) and read it back.
def f(x):
    return x + 1


TESTS_ASSERTS = """
import io
import json
buf = io.StringIO()
json.dump({"y": f(1)}, buf)
assert json.loads(buf.getvalue()) == {"y": 2}
"""
TESTS_PYTEST = """
import io
import json
from solution import f


def test_dump():
    buf = io.StringIO()
    json.dump({"y": f(41)}, buf)
    assert json.loads(buf.getvalue()) == {"y": 42}
"""
