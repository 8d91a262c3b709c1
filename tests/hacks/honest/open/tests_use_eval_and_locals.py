# ruff: noqa
# The tests call builtins that read their caller's frame: eval of a string naming the tests'
# own names, locals(), vars(), dir(). The fence's rewrite ran them in the fence's frame (fixed:
# strict.FRAME_BOUND); open still: inside check() the soft assert's lambda is their frame, which
# does not hold check()'s locals (the pytest variant passes: tests/hacks/honest/tests_use_eval_and_locals_in_pytest.py).
def f(x):
    return x + 1


TESTS_ASSERTS = """
def check(candidate):
    assert eval("candidate(1)") == 2
    k = 5
    assert locals()["k"] == 5
    assert "k" in dir()
    assert vars()["k"] == 5


check(f)
"""
