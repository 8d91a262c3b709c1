# ruff: noqa
# Asserts-style tests whose asserts all sit in a top-level loop (a table of cases): no top-level
# assert or bare call, so no expected test id, and the row is invalid_input (reward 0) however
# right the program is. The same asserts next to one top-level assert do run and do fail a wrong
# program (as set-up steps).
def f(x):
    return x + 1


TESTS_ASSERTS = """
for x, y in [(1, 2), (41, 42), (-3, -2)]:
    assert f(x) == y
"""
