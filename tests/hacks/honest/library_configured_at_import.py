# ruff: noqa
# Correct. At import the program configures libraries the tests also import: warnings
# filters, logging's root level, a compiled-regex cache, the recursion limit, a seeded
# Random of its own. The restorer puts the libraries' shared state back before the tests
# (what they hold in place included): the program's functions must still work with it.
import json
import logging
import re
import sys
import warnings
import random

warnings.filterwarnings("ignore")
logging.basicConfig(level=logging.INFO)
_log = logging.getLogger("solution")
_NUM = re.compile(r"-?\d+(\.\d+)?")
sys.setrecursionlimit(max(sys.getrecursionlimit(), 3000))
_rng = random.Random(7)


def _depth(n):
    return 0 if n == 0 else 1 + _depth(n - 1)


def f(x):
    _log.info("f(%r)", x)
    warnings.warn("ignored")
    assert _NUM.fullmatch(json.dumps(x))
    assert _depth(2000) == 2000
    _rng.random()
    return x + 1


TESTS_ASSERTS = """
import json
import logging
import re
import warnings
assert f(1) == 2
assert json.loads(json.dumps(f(41))) == 42
assert re.fullmatch(r"\\d+", str(f(200)))
assert f(-3) == -2
"""
TESTS_PYTEST = """
import json
import logging
import re
import warnings
from solution import f


def test_f():
    assert f(1) == 2
    assert json.loads(json.dumps(f(41))) == 42
    assert re.fullmatch(r"\\d+", str(f(200)))
    assert f(-3) == -2
"""
