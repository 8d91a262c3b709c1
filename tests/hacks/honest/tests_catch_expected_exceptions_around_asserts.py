# ruff: noqa
# Correct. The tests catch what they expect around their asserts: a TypeError the program must
# raise before an assert (`try: candidate(None); assert False ... except TypeError: pass`), an
# AssertionError of an expectation they mean to fail (pytest.raises written by hand), asserts in
# a loop that `continue`s past cases and `break`s out of it, one in a `try/finally`, a `with`
# block. An assert that was entered and did not complete is no pass when check() raises
# (runner._step_verdicts); check() returns normally here, as under `python`: 1 under every style.
def f(x):
    if not isinstance(x, (int, float)):
        raise TypeError("a number please")
    return x + 1


TESTS_HUMANEVAL = """
import contextlib


def check(candidate):
    assert candidate(1) == 2
    try:
        candidate(None)
        assert False, "no TypeError for None"
    except TypeError:
        pass
    try:
        assert candidate(1) == 3
    except AssertionError:
        pass
    else:
        raise RuntimeError("a wrong expectation held")
    for x in (1, None, 41, "skip", -3, 7):
        if not isinstance(x, int):
            continue
        if x == 7:
            break
        try:
            assert candidate(x) == x + 1
        except TypeError:
            raise AssertionError(f"crashed on {x!r}")
    try:
        assert candidate(0.5) == 1.5
    finally:
        done = True
    with contextlib.suppress(KeyError):
        assert candidate(200) == 201
        raise KeyError("left early, on purpose")
    assert done


check(f)
"""
TESTS_ASSERTS = """
assert f(1) == 2
try:
    f(None)
    assert False, "no TypeError for None"
except TypeError:
    pass
try:
    assert f(1) == 3
except AssertionError:
    pass
for x in (1, None, 41):
    if not isinstance(x, int):
        continue
    assert f(x) == x + 1
"""
TESTS_PYTEST = """
import pytest
from solution import f


def test_f():
    assert f(1) == 2
    with pytest.raises(TypeError):
        assert f(None) == 1
    with pytest.raises(AssertionError):
        assert f(1) == 3
    for x in (1, None, 41):
        if not isinstance(x, int):
            continue
        assert f(x) == x + 1
"""
