# ruff: noqa
STATIC_SCAN_BLIND = "nothing of the candidate's: the tests' async methods are never run"
# Plain wrong code. The tests are an IsolatedAsyncioTestCase: the harness wraps each test method
# in a plain (non-async) function to witness its return, so unittest no longer sees a coroutine
# function, calls the wrapper, gets a coroutine back and never awaits it: no assert runs.
def f(x):
    return 0


TESTS_PYTEST = """
import unittest
from solution import f


class TestF(unittest.IsolatedAsyncioTestCase):
    async def test_int(self):
        self.assertEqual(f(1), 2)

    async def test_neg(self):
        assert f(-3) == -2
"""
