# ruff: noqa
# Wrong, and the pytest file skips every test by its own marks (a skip, a skipif that holds):
# nothing was checked, so nothing is a pass (a check whose every test is skipped fails).
STATIC_SCAN_BLIND = "no trick in the program: the tests' own marks skip every test"


def f(x):
    return 0


TESTS_PYTEST = """
import sys

import pytest
from solution import f


@pytest.mark.skip(reason="later")
def test_int():
    assert f(1) == 2


@pytest.mark.skipif(sys.version_info > (3, 0), reason="python 2 only")
def test_float():
    assert f(0.5) == 1.5
"""
