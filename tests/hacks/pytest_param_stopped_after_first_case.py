# ruff: noqa
# Right for the first parametrized case only, then a KeyboardInterrupt stops pytest (exit code
# 2): the only record of test_f is its first case, which passed. Every collected test must
# report, or the run stopped before it had its say.
TESTS_PYTEST = '''
import pytest
from solution import f


@pytest.mark.parametrize("x,y", [(1, 2), (41, 42), (-3, -2)])
def test_f(x, y):
    assert f(x) == y
'''


def f(x):
    if x == 1:
        return 2
    raise KeyboardInterrupt
