# ruff: noqa
# Correct, and 0 (open, s15j): check() expects the program to raise out of an assert and catches
# it itself (`try: assert candidate("a") == ... except TypeError: pass`, or `with
# contextlib.suppress(TypeError)`). The soft assert takes any Exception of its expression as the
# assert's own error verdict (strict soft()) and goes on, so the tests' handler never sees it
# and their `else: raise AssertionError(...)` fires; `python` on program + tests passes. A fix
# that holds for any code: inside a `try` with handlers (or a `with` block) of check(), a soft
# assert lets an Exception of its expression go (held False first), as Python does, and the
# tests decide; if nobody catches it, the call raised on the assert's line and it fails.
def f(x):
    if not isinstance(x, (int, float)):
        raise TypeError("a number please")
    return x + 1


TESTS_ASSERTS = """
import contextlib


def check(candidate):
    assert candidate(1) == 2
    try:
        assert candidate("a") == "a1"
    except TypeError:
        pass
    else:
        raise AssertionError("no TypeError for a string")
    with contextlib.suppress(TypeError):
        assert candidate(None) == 1
    assert candidate(41) == 42


check(f)
"""
