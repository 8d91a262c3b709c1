# ruff: noqa
# Asserts-style tests whose asserts all sit in a top-level loop (a table of cases): the loop is
# one test, `check:<line>` (splitting.is_loop_check). It had no test id, and the row was
# invalid_input (reward 0) however right the program was (rty's HONEST F).
def f(x):
    return x + 1


TESTS_ASSERTS = """
for x, y in [(1, 2), (41, 42), (-3, -2)]:
    assert f(x) == y
"""
