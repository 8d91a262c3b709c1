# ruff: noqa
# Correct; the program rebinds a module global (`global calls; calls += 1`) and the tests read it
# by name after the calls, as the openai harness allows (program and tests share one namespace).
# Open: the tests' namespace is a copy of the program's taken when the program's text has run
# (runner.py test_namespace), so the tests see the value at that moment (0), not the current one.
def f(x):
    return x + 1


calls = 0


def counted():
    global calls
    calls += 1
    return calls


def reset():
    global calls
    calls = 0


TESTS_ASSERTS = """
assert calls == 0
assert counted() == 1
assert counted() == 2
assert calls == 2
reset()
assert calls == 0
"""
TESTS_HUMANEVAL = """
def check(candidate):
    start = calls
    assert candidate() == start + 1
    assert calls == start + 1


check(counted)
"""
