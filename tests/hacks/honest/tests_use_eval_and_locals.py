# ruff: noqa
# The tests call builtins that read their caller's frame: eval of a string naming the tests'
# own names, locals(), vars(), dir(). The fence's rewrite ran them in the fence's frame (fixed:
# strict.FRAME_BOUND); inside check() the soft assert's lambda was their frame, which does not
# hold check()'s locals (fixed: such an assert is evaluated in check()'s frame, strict.SOFT_BLOCK).
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
