# ruff: noqa
# Correct; reads a module global the tests change (monkeypatch.setattr(solution, ...),
# solution.FACTOR = 3) before they call it. (red team rtk)
FACTOR = 1


def f(x):
    return x * FACTOR + 1


TESTS_PYTEST = ("import solution\nfrom solution import *\n\n\ndef test_f(monkeypatch):\n    monkeypatch.setattr(solution, 'FACTOR', 3)\n"
                "    assert f(2) == 7\n    assert solution.f(2) == 7\n")
TESTS_UNITTEST = ("import unittest\nimport solution\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        solution.FACTOR = 3\n        try:\n            self.assertEqual(solution.f(2), 7)\n"
                  "        finally:\n            solution.FACTOR = 1\n")
